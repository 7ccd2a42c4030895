package org.sperli.crypto;

import com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;
import org.bouncycastle.crypto.digests.SHAKEDigest;

/**
 * The ML-DSA-44 half of a CompositeSig signed by AWS-LC through ACCP, for a launcher that signs many join tokens. In
 * the launcher's short-lived JVM, which compiles with C1 only, Bouncy Castle signs several times slower than AWS-LC;
 * in a JVM whose C2 is warm the two are equal (see docs/performance.md, section 3.6). Ranks sign nothing; they verify
 * the same way ({@link AccpCompositeVerifier}), as their JVMs are cold when they check their peers' join tokens.
 *
 * <p>ACCP takes no ML-DSA context, so this signs the "external mu" of FIPS 204 (ML-DSA.Sign, Algorithm 2, with
 * Algorithm 7's first step done here): {@code mu = SHAKE256(tr || 0x00 || len(ctx) || ctx || M, 64)} with
 * {@code tr = SHAKE256(pk, 64)}. The signature is the very ML-DSA signature with context that Bouncy Castle makes and
 * verifies (hedged, as both sign). ACCP is used as an object, not installed as a provider: nothing else in the process
 * changes. Safe from any thread.
 */
final class AccpMlDsa {
    /** PKCS#8 of an ML-DSA-44 private key given as its seed (OID 2.16.840.1.101.3.4.3.17, seed [0] 32 bytes). */
    private static final byte[] SEED_PKCS8_PREFIX =
            HexFormat.of().parseHex("3034020100300b060960864801650304031104228020");
    private static final int SEED_LENGTH = 32;
    private static final int TR_LENGTH = 64;
    private static final int MU_LENGTH = 64;
    private static final int SHAKE_BITS = 256;
    static final String EXTERNAL_MU = "ML-DSA-ExtMu";

    private final AmazonCorrettoCryptoProvider provider;
    private final PrivateKey key;
    private final byte[] tr;

    private AccpMlDsa(AmazonCorrettoCryptoProvider provider, PrivateKey key, byte[] tr) {
        this.provider = provider;
        this.key = key;
        this.tr = tr;
    }

    /**
     * The key of {@code seed} (32 bytes) with public key {@code publicKey}, or empty when ACCP cannot do ML-DSA here
     * (no native library for this platform, a failed self test, an older ACCP): the caller then signs in Java.
     */
    static Optional<AccpMlDsa> of(byte[] seed, byte[] publicKey) {
        byte[] pkcs8 = Arrays.copyOf(SEED_PKCS8_PREFIX, SEED_PKCS8_PREFIX.length + SEED_LENGTH);
        System.arraycopy(seed, 0, pkcs8, SEED_PKCS8_PREFIX.length, SEED_LENGTH);
        try {
            AmazonCorrettoCryptoProvider accp = AmazonCorrettoCryptoProvider.INSTANCE;
            if (accp.getLoadingError() != null) {
                return Optional.empty();
            }
            PrivateKey key = KeyFactory.getInstance("ML-DSA", accp).generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
            return Optional.of(new AccpMlDsa(accp, key, tr(publicKey)));
        } catch (GeneralSecurityException | LinkageError | RuntimeException e) {
            return Optional.empty();
        } finally {
            Arrays.fill(pkcs8, (byte) 0);
        }
    }

    /** The 2420-byte ML-DSA-44 signature of {@code message} with context {@code ctx} (at most 255 bytes). */
    byte[] sign(byte[] message, byte[] ctx) {
        return AccpEd25519.sign(provider, EXTERNAL_MU, key, externalMu(tr, message, ctx));
    }

    /** {@code tr = SHAKE256(pk, 64)} of an ML-DSA public key. */
    static byte[] tr(byte[] publicKey) {
        byte[] tr = new byte[TR_LENGTH];
        SHAKEDigest shake = new SHAKEDigest(SHAKE_BITS);
        shake.update(publicKey, 0, publicKey.length);
        shake.doFinal(tr, 0, TR_LENGTH);
        return tr;
    }

    /** {@code mu = SHAKE256(tr || 0x00 || len(ctx) || ctx || M, 64)}: what ACCP signs and verifies for the message. */
    static byte[] externalMu(byte[] tr, byte[] message, byte[] ctx) {
        byte[] mu = new byte[MU_LENGTH];
        SHAKEDigest shake = new SHAKEDigest(SHAKE_BITS);
        shake.update(tr, 0, tr.length);
        shake.update((byte) 0);
        shake.update((byte) ctx.length);
        shake.update(ctx, 0, ctx.length);
        shake.update(message, 0, message.length);
        shake.doFinal(mu, 0, MU_LENGTH);
        return mu;
    }
}
