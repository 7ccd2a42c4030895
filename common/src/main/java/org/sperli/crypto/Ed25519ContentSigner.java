package org.sperli.crypto;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import org.bouncycastle.asn1.edec.EdECObjectIdentifiers;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.crypto.params.AsymmetricKeyParameter;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.signers.Ed25519Signer;
import org.bouncycastle.crypto.util.PrivateKeyFactory;
import org.bouncycastle.operator.ContentSigner;

/**
 * Signs one certificate's TBS bytes with Ed25519 (RFC 8410: algorithm id-Ed25519, parameters absent) through Bouncy
 * Castle's lightweight signer, or through AWS-LC ({@link AccpEd25519}) where the caller has it: the signature is the
 * same, RFC 8032 being deterministic. The key arrives as a JDK key of any provider and is read from its PKCS#8
 * encoding, so the JDK's and ACCP's Ed25519 keys both work ({@link #keyOf}). One instance signs once.
 */
final class Ed25519ContentSigner implements ContentSigner {
    private static final AlgorithmIdentifier ED25519 = new AlgorithmIdentifier(EdECObjectIdentifiers.id_Ed25519);

    private final Ed25519PrivateKeyParameters key;
    private final PrivateKey jdkKey;
    private final AccpEd25519 accpOrNull;
    private final ByteArrayOutputStream tbs = new ByteArrayOutputStream(1024);

    /** Signs with {@code jdkKey} in AWS-LC when {@code accpOrNull} is given, else with {@code key} in Java. */
    Ed25519ContentSigner(Ed25519PrivateKeyParameters key, PrivateKey jdkKey, AccpEd25519 accpOrNull) {
        this.key = key;
        this.jdkKey = jdkKey;
        this.accpOrNull = accpOrNull;
    }

    /** Bouncy Castle's form of a JDK key of any provider, read from its PKCS#8 encoding. */
    static Ed25519PrivateKeyParameters keyOf(PrivateKey privateKey) throws GeneralSecurityException {
        AsymmetricKeyParameter parameters;
        try {
            parameters = PrivateKeyFactory.createKey(PrivateKeyInfo.getInstance(privateKey.getEncoded()));
        } catch (IOException | RuntimeException e) {
            throw new GeneralSecurityException("signing key is not a PKCS#8 Ed25519 key", e);
        }
        if (!(parameters instanceof Ed25519PrivateKeyParameters ed25519)) {
            throw new GeneralSecurityException("signing key is " + privateKey.getAlgorithm() + ", expected Ed25519");
        }
        return ed25519;
    }

    @Override
    public AlgorithmIdentifier getAlgorithmIdentifier() {
        return ED25519;
    }

    @Override
    public OutputStream getOutputStream() {
        return tbs;
    }

    @Override
    public byte[] getSignature() {
        return sign(tbs.toByteArray());
    }

    /** The signature of {@code bytes}, whatever was written to the output stream. */
    byte[] sign(byte[] bytes) {
        if (accpOrNull != null) {
            return accpOrNull.sign(jdkKey, bytes);
        }
        Ed25519Signer signer = new Ed25519Signer();
        signer.init(true, key);
        signer.update(bytes, 0, bytes.length);
        return signer.generateSignature();
    }
}
