package org.sperli.crypto;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import java.util.List;
import org.bouncycastle.asn1.DEROctetString;
import org.bouncycastle.asn1.iana.IANAObjectIdentifiers;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.jcajce.CompositePrivateKey;
import org.bouncycastle.jcajce.interfaces.EdDSAPrivateKey;
import org.bouncycastle.jcajce.interfaces.MLDSAPrivateKey;
import org.bouncycastle.jcajce.spec.ContextParameterSpec;

/**
 * CompositeSig: {@code id-MLDSA44-Ed25519-SHA512} of draft-ietf-lamps-pq-composite-sigs-19 (label
 * {@value #LABEL}, OID 1.3.6.1.5.5.7.6.39), the signature of join tokens and COMMIT files (tables section 3a).
 *
 * <p>Raw serializations, no ASN.1: public key 1344 bytes (ML-DSA-44 1312 || Ed25519 32), secret key 64 bytes (ML-DSA
 * seed 32 || Ed25519 private key 32), signature 2484 bytes (ML-DSA-44 2420 || Ed25519 64). A signature is valid only
 * when both halves verify; Bouncy Castle 1.87 builds M' and checks both.
 *
 * <p>Bouncy Castle pitfalls handled here (see {@code COMPSIG-NOTES.md} beside the test vector in
 * {@code common/src/test/resources/org/sperli/crypto}): the context is set after every {@code init} because a reused
 * {@link Signature} keeps the old one; lengths are checked before Bouncy Castle sees the bytes; any exception while
 * verifying means "invalid"; a context above 255 bytes is refused here, not left to the library version. {@link Signature} objects are made per call, so every method is safe from any thread.
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

    private static final int MLDSA_PUBLIC_KEY_LENGTH = 1312;
    private static final int ED25519_PUBLIC_KEY_LENGTH = 32;
    private static final String ALGORITHM = "MLDSA44-Ed25519-SHA512";
    private static final Provider PROVIDER = BouncyCastle.PROVIDER;
    private static final AlgorithmIdentifier ALGORITHM_ID =
            new AlgorithmIdentifier(IANAObjectIdentifiers.id_MLDSA44_Ed25519_SHA512);
    /** KeyFactory is not specified as thread-safe; one per thread keeps the lookup cost out of every call. */
    private static final ThreadLocal<KeyFactory> KEY_FACTORY = ThreadLocal.withInitial(CompositeSig::newKeyFactory);
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
        List<PrivateKey> parts = ((CompositePrivateKey) privateKey(secretKey)).getPrivateKeys();
        byte[] mldsa = ((MLDSAPrivateKey) parts.get(0)).getPublicKey().getPublicData();
        byte[] ed25519 = SubjectPublicKeyInfo.getInstance(((EdDSAPrivateKey) parts.get(1)).getPublicKey().getEncoded())
                .getPublicKeyData().getOctets();
        if (mldsa.length != MLDSA_PUBLIC_KEY_LENGTH || ed25519.length != ED25519_PUBLIC_KEY_LENGTH) {
            throw new IllegalStateException("component public keys of " + mldsa.length + " and " + ed25519.length
                    + " bytes, expected " + MLDSA_PUBLIC_KEY_LENGTH + " and " + ED25519_PUBLIC_KEY_LENGTH);
        }
        byte[] out = Arrays.copyOf(mldsa, PUBLIC_KEY_LENGTH);
        System.arraycopy(ed25519, 0, out, MLDSA_PUBLIC_KEY_LENGTH, ED25519_PUBLIC_KEY_LENGTH);
        return out;
    }

    /**
     * Signs {@code message} with context {@code ctx}: 2484 bytes. Refuses (IllegalArgumentException) a secret key of
     * another length and a context above 255 bytes; the key and the context are the caller's, never the wire's.
     */
    public static byte[] sign(byte[] secretKey, byte[] message, byte[] ctx) {
        requireLength("secret key", secretKey, SECRET_KEY_LENGTH);
        if (ctx.length > MAX_CONTEXT_LENGTH) {
            throw new IllegalArgumentException("context length=" + ctx.length + ", expected 0.." + MAX_CONTEXT_LENGTH);
        }
        byte[] signature;
        try {
            Signature signer = Signature.getInstance(ALGORITHM, PROVIDER);
            signer.initSign(privateKey(secretKey), SIGNING_RANDOM);
            signer.setParameter(new ContextParameterSpec(ctx));
            signer.update(message);
            signature = signer.sign();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("CompositeSig signing failed: " + e.getClass().getSimpleName(), e);
        }
        if (signature.length != SIGNATURE_LENGTH) {
            throw new IllegalStateException("signature length=" + signature.length + ", expected " + SIGNATURE_LENGTH);
        }
        return signature;
    }

    /**
     * Whether {@code signature} is a valid CompositeSig of {@code message} with context {@code ctx} under the raw
     * {@code publicKey}. False for a missing argument, any wrong length, a context above 255 bytes, and any failure
     * inside the library: this method never throws for bad input.
     */
    public static boolean verify(byte[] publicKey, byte[] message, byte[] signature, byte[] ctx) {
        if (publicKey == null || message == null || signature == null || ctx == null
                || publicKey.length != PUBLIC_KEY_LENGTH || signature.length != SIGNATURE_LENGTH
                || ctx.length > MAX_CONTEXT_LENGTH) {
            return false;
        }
        try {
            Signature verifier = Signature.getInstance(ALGORITHM, PROVIDER);
            verifier.initVerify(publicKey(publicKey));
            verifier.setParameter(new ContextParameterSpec(ctx));
            verifier.update(message);
            return verifier.verify(signature);
        } catch (GeneralSecurityException | RuntimeException e) {
            // Bouncy Castle throws for some malformed keys and signatures instead of returning false (unchecked in
            // some versions); both mean "not a valid signature", and nothing about them is worth more to a caller.
            return false;
        }
    }

    private static PublicKey publicKey(byte[] raw) throws GeneralSecurityException {
        try {
            byte[] spki = new SubjectPublicKeyInfo(ALGORITHM_ID, raw).getEncoded();
            return KEY_FACTORY.get().generatePublic(new X509EncodedKeySpec(spki));
        } catch (IOException e) {
            throw new GeneralSecurityException("public key does not encode", e);
        }
    }

    private static PrivateKey privateKey(byte[] raw) {
        byte[] pkcs8 = null;
        try {
            pkcs8 = new PrivateKeyInfo(ALGORITHM_ID, new DEROctetString(raw)).getEncoded();
            return KEY_FACTORY.get().generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
        } catch (IOException | GeneralSecurityException e) {
            // Any 64 bytes are a valid seed pair, so this is a broken provider, not a bad key.
            throw new IllegalStateException("CompositeSig secret key not accepted: " + e.getClass().getSimpleName(), e);
        } finally {
            if (pkcs8 != null) {
                Arrays.fill(pkcs8, (byte) 0);
            }
        }
    }

    private static KeyFactory newKeyFactory() {
        try {
            return KeyFactory.getInstance(ALGORITHM, PROVIDER);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Bouncy Castle lacks " + ALGORITHM, e);
        }
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
