package org.sperli.crypto;

import static org.sperli.crypto.CompositeSig.MLDSA_PUBLIC_KEY_LENGTH;
import static org.sperli.crypto.CompositeSig.MLDSA_SIGNATURE_LENGTH;

import com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;

/**
 * Both halves of a CompositeSig verified by AWS-LC through ACCP, under one public key made ready once: for a rank on
 * the ACCP engine, which checks a join token in every peer's HELLO (63 at 64 ranks) and the COMMIT of every
 * checkpoint, all under the job key. In a rank's cold JVM Bouncy Castle's verification is slow and its Ed25519
 * arithmetic keeps C2 busy; AWS-LC is native from the first call (see docs/performance.md, section 3.7).
 *
 * <p>The ML-DSA half is verified as "external mu" (see {@link AccpMlDsa}), the Ed25519 half as plain RFC 8032. Both
 * libraries follow FIPS 204 and RFC 8032 with its checks (S below the group order, canonical encodings), and
 * {@code CompositeSigTest} checks that they agree on valid, tampered and malformed signatures. Any exception means
 * "invalid", as in Bouncy Castle's path. Safe from any thread: key objects are immutable, signature objects are made
 * per call.
 */
final class AccpCompositeVerifier {
    /** X.509 SubjectPublicKeyInfo of ML-DSA-44 (OID 2.16.840.1.101.3.4.3.17) up to its 1312 key bytes. */
    private static final byte[] MLDSA_SPKI_PREFIX =
            HexFormat.of().parseHex("30820532300b06096086480165030403110382052100");

    /** The last key made ready: every signature a rank checks is under the one job key. */
    private static volatile AccpCompositeVerifier last;

    private final byte[] publicKey;
    private final AmazonCorrettoCryptoProvider provider;
    private final PublicKey mldsa;
    private final byte[] tr;
    private final PublicKey ed25519;

    private AccpCompositeVerifier(byte[] publicKey, AmazonCorrettoCryptoProvider provider, PublicKey mldsa,
                                  PublicKey ed25519) {
        this.publicKey = publicKey;
        this.provider = provider;
        this.mldsa = mldsa;
        this.tr = AccpMlDsa.tr(Arrays.copyOf(publicKey, MLDSA_PUBLIC_KEY_LENGTH));
        this.ed25519 = ed25519;
    }

    /**
     * The verifier of the raw 1344-byte {@code publicKey} (length checked by the caller), or empty where ACCP cannot
     * read it or does not load: the caller then verifies in Java.
     */
    static Optional<AccpCompositeVerifier> forKey(byte[] publicKey) {
        AccpCompositeVerifier ready = last;
        if (ready != null && Arrays.equals(ready.publicKey, publicKey)) {
            return Optional.of(ready);
        }
        try {
            AmazonCorrettoCryptoProvider accp = AmazonCorrettoCryptoProvider.INSTANCE;
            if (accp.getLoadingError() != null) {
                return Optional.empty();
            }
            byte[] spki = Arrays.copyOf(MLDSA_SPKI_PREFIX, MLDSA_SPKI_PREFIX.length + MLDSA_PUBLIC_KEY_LENGTH);
            System.arraycopy(publicKey, 0, spki, MLDSA_SPKI_PREFIX.length, MLDSA_PUBLIC_KEY_LENGTH);
            PublicKey mldsa = KeyFactory.getInstance("ML-DSA", accp).generatePublic(new X509EncodedKeySpec(spki));
            // ACCP reads no Ed25519 key itself; its signature takes the JDK's.
            PublicKey ed25519 = KeyFactory.getInstance("Ed25519").generatePublic(Ed25519Keys.publicKeySpec(
                    Arrays.copyOfRange(publicKey, MLDSA_PUBLIC_KEY_LENGTH, publicKey.length)));
            ready = new AccpCompositeVerifier(publicKey.clone(), accp, mldsa, ed25519);
            last = ready;
            return Optional.of(ready);
        } catch (GeneralSecurityException | LinkageError | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Whether both halves of {@code signature} (2484 bytes) hold for M' and the ML-DSA context {@code label}. */
    boolean verify(byte[] representative, byte[] signature, byte[] label) {
        try {
            Signature mlDsaHalf = Signature.getInstance(AccpMlDsa.EXTERNAL_MU, provider);
            mlDsaHalf.initVerify(mldsa);
            mlDsaHalf.update(AccpMlDsa.externalMu(tr, representative, label));
            boolean mldsaValid = mlDsaHalf.verify(signature, 0, MLDSA_SIGNATURE_LENGTH);
            Signature ed25519Half = Signature.getInstance("Ed25519", provider);
            ed25519Half.initVerify(ed25519);
            ed25519Half.update(representative);
            boolean ed25519Valid = ed25519Half.verify(signature, MLDSA_SIGNATURE_LENGTH,
                    signature.length - MLDSA_SIGNATURE_LENGTH);
            return mldsaValid & ed25519Valid;
        } catch (GeneralSecurityException | RuntimeException e) {
            return false;
        }
    }
}
