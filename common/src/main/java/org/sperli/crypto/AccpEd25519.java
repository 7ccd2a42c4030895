package org.sperli.crypto;

import com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Signature;
import java.util.Optional;

/**
 * Ed25519 key generation and signing by AWS-LC through ACCP, for a launcher with thousands of rank certificates and
 * join tokens to make: in its short-lived JVM, which compiles with C1 only, Bouncy Castle's Ed25519 is much of that
 * work, and AWS-LC's is cheaper per key and per signature ({@code scripts/bench launchcost}; see docs/performance.md,
 * section 3.6). Ranks on the ACCP engine verify join tokens and COMMIT files with it ({@link AccpCompositeVerifier}).
 *
 * <p>RFC 8032 signatures are deterministic, so a signature made here is the very one Bouncy Castle makes with the same
 * key. Keys go in and come out as JDK keys ({@link Ed25519Keys#fromAccp}); ACCP is used as an object, not installed as
 * a provider, so nothing else in the process changes. Safe from any thread.
 */
public final class AccpEd25519 {
    private static final String ED25519 = "Ed25519";

    private final AmazonCorrettoCryptoProvider provider;

    private AccpEd25519(AmazonCorrettoCryptoProvider provider) {
        this.provider = provider;
    }

    /**
     * ACCP's Ed25519, or empty when ACCP cannot do it here (no native library for this platform, a failed self test):
     * the caller then stays with Bouncy Castle.
     */
    public static Optional<AccpEd25519> load() {
        try {
            AmazonCorrettoCryptoProvider accp = AmazonCorrettoCryptoProvider.INSTANCE;
            if (accp.getLoadingError() != null) {
                return Optional.empty();
            }
            AccpEd25519 loaded = new AccpEd25519(accp);
            // Once through both paths, so that a platform where they fail is found here and not in the middle of a job.
            KeyPair probe = loaded.generate();
            loaded.sign(probe.getPrivate(), new byte[1]);
            return Optional.of(loaded);
        } catch (LinkageError | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** A fresh key pair from AWS-LC's generator, as JDK keys. */
    public KeyPair generate() {
        try {
            KeyPair pair = KeyPairGenerator.getInstance(ED25519, provider).generateKeyPair();
            return Ed25519Keys.fromAccp(pair);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Ed25519 key generation in AWS-LC failed: " + e.getMessage(), e);
        }
    }

    /** The 64-byte signature of {@code message} under {@code key}, an Ed25519 key of any provider. */
    byte[] sign(PrivateKey key, byte[] message) {
        return sign(provider, ED25519, key, message);
    }

    /** The {@code algorithm} signature by ACCP of {@code message} under {@code key}, for this class and AccpMlDsa. */
    static byte[] sign(AmazonCorrettoCryptoProvider accp, String algorithm, PrivateKey key, byte[] message) {
        try {
            Signature signature = Signature.getInstance(algorithm, accp);
            signature.initSign(key);
            signature.update(message);
            return signature.sign();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(algorithm + " signing in AWS-LC failed: " + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return "AccpEd25519[" + provider.getName() + " " + provider.getVersionStr() + "]";
    }
}
