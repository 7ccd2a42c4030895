package org.sperli.crypto;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;

/**
 * Fresh Ed25519 key pairs as JDK keys, for the job CA and the rank certificates.
 *
 * <p>The key is generated with Bouncy Castle (an RFC 8032 private key is 32 random bytes; Bouncy Castle derives the
 * public key several times faster than the JDK 17 provider, which matters at 4096 ranks per launch) and handed out
 * as JDK {@code EdDSA} keys, parsed from their standard encodings, so that the JDK's TLS stack uses them as its own.
 * A launcher with many ranks generates them with AWS-LC instead ({@link AccpEd25519}), and hands them out the same way.
 */
public final class Ed25519Keys {
    /** PKCS#8 v1 (RFC 8410) of an Ed25519 private key, up to the 32 key bytes. */
    private static final byte[] PKCS8_PREFIX = HexFormat.of().parseHex("302e020100300506032b657004220420");
    /** SubjectPublicKeyInfo (RFC 8410) of an Ed25519 public key, up to the 32 key bytes. */
    private static final byte[] SPKI_PREFIX = HexFormat.of().parseHex("302a300506032b6570032100");
    private static final int KEY_LENGTH = 32;
    private static final String ED25519 = "Ed25519";

    private Ed25519Keys() {
    }

    /** A new Ed25519 key pair from {@code random}, as JDK keys. */
    public static KeyPair generate(SecureRandom random) {
        Ed25519PrivateKeyParameters key = new Ed25519PrivateKeyParameters(random);
        return jdkKeys(key.getEncoded(), key.generatePublicKey().getEncoded());
    }

    /**
     * A new Ed25519 key pair from {@code accp} where it is given, else from {@code random}: either way as JDK keys, so
     * that the key's PEM text and everything after it are the same.
     */
    public static KeyPair generate(SecureRandom random, Optional<AccpEd25519> accp) {
        return accp.isPresent() ? accp.get().generate() : generate(random);
    }

    /** An ACCP key pair as JDK keys, read from their standard encodings. */
    static KeyPair fromAccp(KeyPair accp) throws GeneralSecurityException {
        byte[] publicKey;
        try {
            publicKey = rawPublicKey(accp.getPublic());
        } catch (IllegalArgumentException e) {
            throw new GeneralSecurityException("the public key is not an RFC 8410 Ed25519 key", e);
        }
        return jdkKeys(Ed25519ContentSigner.keyOf(accp.getPrivate()).getEncoded(), publicKey);
    }

    /**
     * The 32 bytes of an Ed25519 public key of any provider, read from its X.509 (RFC 8410) encoding
     * (IllegalArgumentException: any other key).
     */
    static byte[] rawPublicKey(PublicKey key) {
        byte[] spki = key.getEncoded();
        if (spki == null || spki.length != SPKI_PREFIX.length + KEY_LENGTH
                || !Arrays.equals(spki, 0, SPKI_PREFIX.length, SPKI_PREFIX, 0, SPKI_PREFIX.length)) {
            throw new IllegalArgumentException("key is not an RFC 8410 Ed25519 public key");
        }
        return Arrays.copyOfRange(spki, SPKI_PREFIX.length, spki.length);
    }

    /** JDK keys of a raw private key and its public key (32 bytes each), which it wipes. */
    static KeyPair jdkKeys(byte[] privateKey, byte[] publicKey) {
        byte[] pkcs8 = withKey(PKCS8_PREFIX, privateKey);
        byte[] spki = withKey(SPKI_PREFIX, publicKey);
        try {
            KeyFactory factory = KeyFactory.getInstance(ED25519);
            return new KeyPair(factory.generatePublic(new X509EncodedKeySpec(spki)),
                    factory.generatePrivate(new PKCS8EncodedKeySpec(pkcs8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK does not read an RFC 8410 Ed25519 key", e);
        } finally {
            Arrays.fill(pkcs8, (byte) 0);
        }
    }

    /** The X.509 (RFC 8410) encoding of a raw 32-byte Ed25519 public key, which stays as it is. */
    static X509EncodedKeySpec publicKeySpec(byte[] publicKey) {
        return new X509EncodedKeySpec(withKey(SPKI_PREFIX, publicKey.clone()));
    }

    private static byte[] withKey(byte[] prefix, byte[] key) {
        if (key.length != KEY_LENGTH) {
            throw new IllegalStateException("Ed25519 key of " + key.length + " bytes, expected " + KEY_LENGTH);
        }
        byte[] out = Arrays.copyOf(prefix, prefix.length + KEY_LENGTH);
        System.arraycopy(key, 0, out, prefix.length, KEY_LENGTH);
        Arrays.fill(key, (byte) 0);
        return out;
    }
}
