package org.sperli.crypto;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Optional;
import org.bouncycastle.crypto.CryptoException;
import org.bouncycastle.crypto.digests.SHA512Digest;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;
import org.bouncycastle.crypto.params.MLDSAParameters;
import org.bouncycastle.crypto.params.MLDSAPrivateKeyParameters;
import org.bouncycastle.crypto.params.MLDSAPublicKeyParameters;
import org.bouncycastle.crypto.params.ParametersWithContext;
import org.bouncycastle.crypto.params.ParametersWithRandom;
import org.bouncycastle.crypto.signers.Ed25519Signer;
import org.bouncycastle.crypto.signers.MLDSASigner;

/**
 * CompositeSig: {@code id-MLDSA44-Ed25519-SHA512} of draft-ietf-lamps-pq-composite-sigs-19 (label
 * {@value #LABEL}, OID 1.3.6.1.5.5.7.6.39), the signature of join tokens and COMMIT files (tables section 3a).
 *
 * <p>Raw serializations, no ASN.1: public key 1344 bytes (ML-DSA-44 1312 || Ed25519 32), secret key 64 bytes (ML-DSA
 * seed 32 || Ed25519 private key 32), signature 2484 bytes (ML-DSA-44 2420 || Ed25519 64). A signature is valid only
 * when both halves verify.
 *
 * <p>Built here from Bouncy Castle's lightweight ML-DSA and Ed25519, step by step as the protocol document's section
 * 3.5 says, not through its JCA provider: setting that provider up was a large part of a rank's start-up (see
 * docs/performance.md, section 3.7), and the construction is a few lines. The draft's vector
 * ({@code CompositeSigVectorTest}) keeps the two equal. Lengths are checked before Bouncy Castle sees the bytes; any
 * exception while verifying means "invalid"; a context above 255 bytes is refused here. Signers are made per call, so
 * every method is safe from any thread. AWS-LC may do the same steps natively: a launcher's signer on request, and
 * {@link #verify} in a process whose TLS engine is ACCP.
 */
public final class CompositeSig {
    /** Raw public key: ML-DSA-44 public key (1312) || Ed25519 public key (32). */
    public static final int PUBLIC_KEY_LENGTH = 1344;
    /** Raw secret key: ML-DSA-44 seed (32) || Ed25519 private key (32). */
    public static final int SECRET_KEY_LENGTH = 64;
    /** Raw signature: ML-DSA-44 signature (2420) || Ed25519 signature (64). */
    public static final int SIGNATURE_LENGTH = 2484;
    /** Longest application context: its length travels in one byte of M'. */
    public static final int MAX_CONTEXT_LENGTH = 255;
    /** The composite's label: part of M', and the ML-DSA context of the ML-DSA half. */
    public static final String LABEL = "COMPSIG-MLDSA44-Ed25519-SHA512";
    /**
     * Application context of join tokens. A shared array: never write into it (it is only ever passed to
     * {@link #sign} and {@link #verify}, which copy it).
     */
    public static final byte[] CONTEXT_JOIN = "SPERLI-JOIN-1".getBytes(StandardCharsets.US_ASCII);
    /** Application context of COMMIT files. A shared array: never write into it. */
    public static final byte[] CONTEXT_COMMIT = "SPERLI-COMMIT-1".getBytes(StandardCharsets.US_ASCII);

    /*
     * M' (protocol section 3.5):
     *
     *   off          size      field
     *   0            32        prefix "CompositeAlgorithmSignatures2025"
     *   32           30        label
     *   62           1         len(ctx)
     *   63           len(ctx)  ctx
     *   63+len(ctx)  64        SHA-512(M)
     */
    private static final byte[] PREFIX = "CompositeAlgorithmSignatures2025".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] LABEL_BYTES = LABEL.getBytes(StandardCharsets.US_ASCII);
    private static final int LABEL_OFFSET = 32;
    private static final int CONTEXT_LENGTH_OFFSET = 62;
    private static final int CONTEXT_OFFSET = 63;
    private static final int HASH_LENGTH = 64;

    /** The ML-DSA-44 half of a public key and of a signature, which come first. */
    static final int MLDSA_PUBLIC_KEY_LENGTH = 1312;
    static final int MLDSA_SIGNATURE_LENGTH = 2420;
    private static final int SEED_LENGTH = 32;
    private static final MLDSAParameters MLDSA = MLDSAParameters.ml_dsa_44;
    /** Hedged ML-DSA (FIPS 204's default) takes fresh randomness per signature; SecureRandom is thread-safe. */
    private static final SecureRandom SIGNING_RANDOM = new SecureRandom();

    private CompositeSig() {
    }

    /**
     * A fresh job key pair. The secret key is 64 bytes from {@code random}: FIPS 204 key generation is
     * {@code KeyGen_internal} of a random 32-byte seed and an RFC 8032 private key is 32 random bytes, so this is
     * exactly key generation for both halves, both fresh (the draft forbids reusing a component key).
     */
    public static KeyPair generate(SecureRandom random) {
        byte[] secretKey = new byte[SECRET_KEY_LENGTH];
        random.nextBytes(secretKey);
        try {
            return new KeyPair(publicKeyOf(secretKey), secretKey);
        } finally {
            Arrays.fill(secretKey, (byte) 0);
        }
    }

    /** The raw 1344-byte public key of a raw 64-byte secret key. */
    public static byte[] publicKeyOf(byte[] secretKey) {
        requireLength("secret key", secretKey, SECRET_KEY_LENGTH);
        byte[] mldsa = mldsaKey(secretKey).getPublicKeyParameters().getEncoded();
        byte[] ed25519 = ed25519Key(secretKey).generatePublicKey().getEncoded();
        if (mldsa.length != MLDSA_PUBLIC_KEY_LENGTH || ed25519.length != Ed25519PublicKeyParameters.KEY_SIZE) {
            throw new IllegalStateException("component public keys of " + mldsa.length + " and " + ed25519.length
                    + " bytes, expected " + MLDSA_PUBLIC_KEY_LENGTH + " and " + Ed25519PublicKeyParameters.KEY_SIZE);
        }
        byte[] out = Arrays.copyOf(mldsa, PUBLIC_KEY_LENGTH);
        System.arraycopy(ed25519, 0, out, MLDSA_PUBLIC_KEY_LENGTH, ed25519.length);
        return out;
    }

    /**
     * Signs {@code message} with context {@code ctx}: 2484 bytes. Refuses (IllegalArgumentException) a secret key of
     * another length and a context above 255 bytes; the key and the context are the caller's, never the wire's.
     */
    public static byte[] sign(byte[] secretKey, byte[] message, byte[] ctx) {
        return signer(secretKey).sign(message, ctx);
    }

    /** {@code secretKey} made ready for many signatures (IllegalArgumentException: not 64 bytes). */
    public static Signer signer(byte[] secretKey) {
        return signer(secretKey, false);
    }

    /**
     * As {@link #signer(byte[])}; with {@code nativeSigning}, both halves are signed by AWS-LC ({@link AccpMlDsa},
     * {@link AccpEd25519}) where ACCP loads, else in Java as always. Worth its start only for a launcher with hundreds
     * of tokens to sign (see docs/performance.md, section 3.6).
     */
    public static Signer signer(byte[] secretKey, boolean nativeSigning) {
        requireLength("secret key", secretKey, SECRET_KEY_LENGTH);
        MLDSAPrivateKeyParameters mldsaKey = mldsaKey(secretKey);
        Ed25519PrivateKeyParameters ed25519Key = ed25519Key(secretKey);
        AccpMlDsa mlDsaOrNull = null;
        NativeEd25519 ed25519OrNull = null;
        if (nativeSigning) {
            byte[] seed = Arrays.copyOf(secretKey, SEED_LENGTH);
            try {
                mlDsaOrNull = AccpMlDsa.of(seed, mldsaKey.getPublicKeyParameters().getEncoded()).orElse(null);
            } finally {
                Arrays.fill(seed, (byte) 0);
            }
            ed25519OrNull = AccpEd25519.load().map(accp -> new NativeEd25519(accp, Ed25519Keys.jdkKeys(
                    ed25519Key.getEncoded(), ed25519Key.generatePublicKey().getEncoded()).getPrivate())).orElse(null);
        }
        return new Signer(mldsaKey, mlDsaOrNull, ed25519Key, ed25519OrNull);
    }

    /** The Ed25519 half's key as AWS-LC signs with it. */
    private record NativeEd25519(AccpEd25519 accp, PrivateKey key) {
        @Override
        public String toString() {
            return "NativeEd25519[key=(redacted)]";
        }
    }

    /**
     * A secret key ready for many signatures: the ML-DSA key expanded from its seed and the Ed25519 public key derived
     * once, not per signature (expanding the ML-DSA key alone is a noticeable part of signing a join token, and the
     * launcher signs one per rank and incarnation). It holds the key in expanded form for as long as it is
     * referenced; safe from any thread.
     */
    public static final class Signer {
        private final MLDSAPrivateKeyParameters mldsaKey;
        private final AccpMlDsa nativeMlDsaOrNull;
        private final Ed25519PrivateKeyParameters ed25519Key;
        private final NativeEd25519 nativeEd25519OrNull;

        private Signer(MLDSAPrivateKeyParameters mldsaKey, AccpMlDsa nativeMlDsaOrNull,
                       Ed25519PrivateKeyParameters ed25519Key, NativeEd25519 nativeEd25519OrNull) {
            this.mldsaKey = mldsaKey;
            this.nativeMlDsaOrNull = nativeMlDsaOrNull;
            this.ed25519Key = ed25519Key;
            this.nativeEd25519OrNull = nativeEd25519OrNull;
            // Derived and kept by Bouncy Castle now, so that no signature pays for it.
            ed25519Key.generatePublicKey();
        }

        /** Whether AWS-LC signs the ML-DSA half. */
        public boolean mlDsaIsNative() {
            return nativeMlDsaOrNull != null;
        }

        /** Whether AWS-LC signs the Ed25519 half. */
        public boolean ed25519IsNative() {
            return nativeEd25519OrNull != null;
        }

        /** As {@link CompositeSig#sign}. */
        public byte[] sign(byte[] message, byte[] ctx) {
            if (ctx.length > MAX_CONTEXT_LENGTH) {
                throw new IllegalArgumentException("context length=" + ctx.length + ", expected 0.."
                        + MAX_CONTEXT_LENGTH);
            }
            byte[] representative = representative(message, ctx);
            byte[] mldsaSignature;
            byte[] ed25519Signature;
            try {
                mldsaSignature = nativeMlDsaOrNull != null ? nativeMlDsaOrNull.sign(representative, LABEL_BYTES)
                        : mldsaSignature(representative);
                ed25519Signature = nativeEd25519OrNull != null
                        ? nativeEd25519OrNull.accp().sign(nativeEd25519OrNull.key(), representative)
                        : ed25519Signature(representative);
            } catch (CryptoException e) {
                throw new IllegalStateException("CompositeSig signing failed: " + e.getMessage(), e);
            }
            if (mldsaSignature.length != MLDSA_SIGNATURE_LENGTH
                    || ed25519Signature.length != Ed25519PrivateKeyParameters.SIGNATURE_SIZE) {
                throw new IllegalStateException("component signatures of " + mldsaSignature.length + " and "
                        + ed25519Signature.length + " bytes, expected " + MLDSA_SIGNATURE_LENGTH + " and "
                        + Ed25519PrivateKeyParameters.SIGNATURE_SIZE);
            }
            byte[] signature = Arrays.copyOf(mldsaSignature, SIGNATURE_LENGTH);
            System.arraycopy(ed25519Signature, 0, signature, MLDSA_SIGNATURE_LENGTH, ed25519Signature.length);
            return signature;
        }

        private byte[] ed25519Signature(byte[] representative) {
            Ed25519Signer ed25519 = new Ed25519Signer();
            ed25519.init(true, ed25519Key);
            ed25519.update(representative, 0, representative.length);
            return ed25519.generateSignature();
        }

        private byte[] mldsaSignature(byte[] representative) throws CryptoException {
            MLDSASigner mldsa = new MLDSASigner();
            mldsa.init(true, new ParametersWithContext(new ParametersWithRandom(mldsaKey, SIGNING_RANDOM),
                    LABEL_BYTES));
            mldsa.update(representative, 0, representative.length);
            return mldsa.generateSignature();
        }

        @Override
        public String toString() {
            return "CompositeSig.Signer[ML-DSA in " + (mlDsaIsNative() ? "AWS-LC" : "Java") + ", Ed25519 in "
                    + (ed25519IsNative() ? "AWS-LC" : "Java") + ", key=(redacted)]";
        }
    }

    /**
     * Whether {@code signature} is a valid CompositeSig of {@code message} with context {@code ctx} under the raw
     * {@code publicKey}. False for a missing argument, any wrong length, a context above 255 bytes, and any failure
     * inside the library: this method never throws for bad input. Where the process's TLS engine is ACCP (a rank's,
     * by default), AWS-LC verifies both halves ({@link AccpCompositeVerifier}); elsewhere Bouncy Castle does.
     */
    public static boolean verify(byte[] publicKey, byte[] message, byte[] signature, byte[] ctx) {
        return verify(publicKey, message, signature, ctx, CryptoEngine.current() == CryptoEngine.Name.ACCP);
    }

    /**
     * As {@link #verify(byte[], byte[], byte[], byte[])}; with {@code natively}, AWS-LC verifies both halves where it
     * loads ({@link AccpCompositeVerifier}), as it does in a process whose TLS engine is ACCP (a rank), else Bouncy
     * Castle.
     */
    static boolean verify(byte[] publicKey, byte[] message, byte[] signature, byte[] ctx, boolean natively) {
        if (publicKey == null || message == null || signature == null || ctx == null
                || publicKey.length != PUBLIC_KEY_LENGTH || signature.length != SIGNATURE_LENGTH
                || ctx.length > MAX_CONTEXT_LENGTH) {
            return false;
        }
        try {
            byte[] representative = representative(message, ctx);
            if (natively) {
                Optional<AccpCompositeVerifier> accp = AccpCompositeVerifier.forKey(publicKey);
                if (accp.isPresent()) {
                    return accp.get().verify(representative, signature, LABEL_BYTES);
                }
            }
            MLDSASigner mldsa = new MLDSASigner();
            mldsa.init(false, new ParametersWithContext(new MLDSAPublicKeyParameters(MLDSA,
                    Arrays.copyOf(publicKey, MLDSA_PUBLIC_KEY_LENGTH)), LABEL_BYTES));
            mldsa.update(representative, 0, representative.length);
            boolean mldsaValid = mldsa.verifySignature(Arrays.copyOf(signature, MLDSA_SIGNATURE_LENGTH));
            Ed25519Signer ed25519 = new Ed25519Signer();
            ed25519.init(false, new Ed25519PublicKeyParameters(publicKey, MLDSA_PUBLIC_KEY_LENGTH));
            ed25519.update(representative, 0, representative.length);
            boolean ed25519Valid = ed25519.verifySignature(
                    Arrays.copyOfRange(signature, MLDSA_SIGNATURE_LENGTH, SIGNATURE_LENGTH));
            return mldsaValid & ed25519Valid;
        } catch (RuntimeException e) {
            // Bouncy Castle throws for some malformed keys and signatures instead of returning false; both mean "not
            // a valid signature", and nothing about them is worth more to a caller.
            return false;
        }
    }

    /** M' of {@code message} and {@code ctx} (at most 255 bytes, checked by the callers). */
    private static byte[] representative(byte[] message, byte[] ctx) {
        byte[] out = new byte[CONTEXT_OFFSET + ctx.length + HASH_LENGTH];
        System.arraycopy(PREFIX, 0, out, 0, PREFIX.length);
        System.arraycopy(LABEL_BYTES, 0, out, LABEL_OFFSET, LABEL_BYTES.length);
        out[CONTEXT_LENGTH_OFFSET] = (byte) ctx.length;
        System.arraycopy(ctx, 0, out, CONTEXT_OFFSET, ctx.length);
        SHA512Digest sha512 = new SHA512Digest();
        sha512.update(message, 0, message.length);
        sha512.doFinal(out, CONTEXT_OFFSET + ctx.length);
        return out;
    }

    private static MLDSAPrivateKeyParameters mldsaKey(byte[] secretKey) {
        byte[] seed = Arrays.copyOf(secretKey, SEED_LENGTH);
        try {
            return new MLDSAPrivateKeyParameters(MLDSA, seed);
        } finally {
            Arrays.fill(seed, (byte) 0);
        }
    }

    private static Ed25519PrivateKeyParameters ed25519Key(byte[] secretKey) {
        return new Ed25519PrivateKeyParameters(secretKey, SEED_LENGTH);
    }

    private static void requireLength(String what, byte[] bytes, int expected) {
        if (bytes == null || bytes.length != expected) {
            throw new IllegalArgumentException(what + " length=" + (bytes == null ? "null" : bytes.length)
                    + ", expected " + expected);
        }
    }

    /**
     * A raw key pair. The arrays are copied in and out, so a holder cannot change the pair; {@link #toString} never
     * shows the secret key.
     */
    public record KeyPair(byte[] publicKey, byte[] secretKey) {
        public KeyPair {
            requireLength("public key", publicKey, PUBLIC_KEY_LENGTH);
            requireLength("secret key", secretKey, SECRET_KEY_LENGTH);
            publicKey = publicKey.clone();
            secretKey = secretKey.clone();
        }

        // Copies out, as JobDescription's accessors do: a record would hand out the arrays themselves.
        @Override
        public byte[] publicKey() {
            return publicKey.clone();
        }

        @Override
        public byte[] secretKey() {
            return secretKey.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof KeyPair k && Arrays.equals(publicKey, k.publicKey)
                    && MessageDigest.isEqual(secretKey, k.secretKey);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(publicKey);
        }

        @Override
        public String toString() {
            return "CompositeSig.KeyPair[publicKey=" + PUBLIC_KEY_LENGTH + " bytes, secretKey=(redacted)]";
        }
    }
}
