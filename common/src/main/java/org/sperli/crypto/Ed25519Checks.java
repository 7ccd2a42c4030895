package org.sperli.crypto;

import java.io.IOException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import org.bouncycastle.asn1.edec.EdECObjectIdentifiers;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.crypto.params.AsymmetricKeyParameter;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;
import org.bouncycastle.crypto.signers.Ed25519Signer;
import org.bouncycastle.crypto.util.PrivateKeyFactory;
import org.bouncycastle.crypto.util.PublicKeyFactory;

/**
 * The two Ed25519 checks a rank makes of its own identity before it connects, done with Bouncy Castle's lightweight
 * Ed25519, which the join token's composite signature has already loaded: a rank checks its description while its TLS
 * engine still loads, and the JDK's own Ed25519 would be loaded and run cold for this one use, a cost every rank pays
 * at launch, when many ranks share a core (see docs/performance.md, section 3.7). The keys arrive as JDK keys of any
 * provider and are read from their standard encodings.
 */
public final class Ed25519Checks {
    private Ed25519Checks() {
    }

    /**
     * Whether {@code certificate} carries an Ed25519 signature (RFC 8410: id-Ed25519, parameters absent) over its TBS
     * bytes that {@code issuerKey} verifies. False for any other algorithm or key, never an exception.
     */
    public static boolean signedBy(X509Certificate certificate, PublicKey issuerKey) {
        Ed25519PublicKeyParameters issuer = publicKey(issuerKey);
        if (issuer == null || !EdECObjectIdentifiers.id_Ed25519.getId().equals(certificate.getSigAlgOID())
                || certificate.getSigAlgParams() != null) {
            return false;
        }
        byte[] tbs;
        try {
            tbs = certificate.getTBSCertificate();
        } catch (CertificateEncodingException e) {
            return false;
        }
        byte[] signature = certificate.getSignature();
        if (signature.length != Ed25519PrivateKeyParameters.SIGNATURE_SIZE) {
            return false;
        }
        Ed25519Signer verifier = new Ed25519Signer();
        verifier.init(false, issuer);
        verifier.update(tbs, 0, tbs.length);
        return verifier.verifySignature(signature);
    }

    /** Whether {@code publicKey} is the Ed25519 public key of the Ed25519 {@code privateKey}; false for other keys. */
    public static boolean pairOf(PrivateKey privateKey, PublicKey publicKey) {
        Ed25519PublicKeyParameters expected = publicKey(publicKey);
        byte[] encoded = privateKey.getEncoded();
        if (expected == null || encoded == null) {
            return false;
        }
        AsymmetricKeyParameter parameters;
        try {
            parameters = PrivateKeyFactory.createKey(PrivateKeyInfo.getInstance(encoded));
        } catch (IOException | RuntimeException e) {
            return false;
        } finally {
            Arrays.fill(encoded, (byte) 0);
        }
        if (!(parameters instanceof Ed25519PrivateKeyParameters ed25519)) {
            return false;
        }
        return Arrays.equals(ed25519.generatePublicKey().getEncoded(), expected.getEncoded());
    }

    private static Ed25519PublicKeyParameters publicKey(PublicKey key) {
        byte[] encoded = key.getEncoded();
        if (encoded == null) {
            return null;
        }
        try {
            AsymmetricKeyParameter parameters = PublicKeyFactory.createKey(SubjectPublicKeyInfo.getInstance(encoded));
            return parameters instanceof Ed25519PublicKeyParameters ed25519 ? ed25519 : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
