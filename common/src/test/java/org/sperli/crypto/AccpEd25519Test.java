package org.sperli.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.security.interfaces.EdECPrivateKey;
import java.security.interfaces.EdECPublicKey;
import java.time.Instant;
import java.util.Arrays;
import java.util.Optional;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.signers.Ed25519Signer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** AWS-LC's Ed25519, which a launcher with many ranks uses, makes the keys and signatures that the Java path makes. */
class AccpEd25519Test {
    private static final byte[] MESSAGE = "to be signed by the job CA".getBytes(StandardCharsets.US_ASCII);
    private static AccpEd25519 accp;

    @BeforeAll
    static void load() {
        Optional<AccpEd25519> loaded = AccpEd25519.load();
        assumeTrue(loaded.isPresent(), "ACCP's native library does not load here: nothing to compare");
        accp = loaded.get();
    }

    @Test
    void aSignatureIsTheOneBouncyCastleMakesWithTheSameKey() {
        KeyPair pair = Ed25519Keys.generate(new SecureRandom());
        Ed25519Signer java = new Ed25519Signer();
        java.init(true, new Ed25519PrivateKeyParameters(seedOf(pair.getPrivate())));
        java.update(MESSAGE, 0, MESSAGE.length);
        assertArrayEquals(java.generateSignature(), accp.sign(pair.getPrivate(), MESSAGE), "RFC 8032 is deterministic");
    }

    @Test
    void aGeneratedPairIsAPairOfJdkKeysInTheFormOfTheJavaPath() throws Exception {
        KeyPair pair = Ed25519Keys.generate(new SecureRandom(), Optional.of(accp));
        assertEquals("Ed25519", assertInstanceOf(EdECPublicKey.class, pair.getPublic()).getParams().getName());
        assertEquals("Ed25519", assertInstanceOf(EdECPrivateKey.class, pair.getPrivate()).getParams().getName());
        assertEquals(48, pair.getPrivate().getEncoded().length, "PKCS#8 v1 of RFC 8410");
        byte[] derived = new Ed25519PrivateKeyParameters(seedOf(pair.getPrivate())).generatePublicKey().getEncoded();
        byte[] spki = pair.getPublic().getEncoded();
        assertArrayEquals(derived, Arrays.copyOfRange(spki, spki.length - 32, spki.length),
                "the public key is the one its private key derives");
        Signature verifier = Signature.getInstance("Ed25519");
        verifier.initVerify(pair.getPublic());
        verifier.update(MESSAGE);
        assertTrue(verifier.verify(accp.sign(pair.getPrivate(), MESSAGE)));
    }

    @Test
    void everyGeneratedKeyIsFresh() {
        KeyPair a = accp.generate();
        KeyPair b = accp.generate();
        assertFalse(Arrays.equals(a.getPrivate().getEncoded(), b.getPrivate().getEncoded()));
    }

    @Test
    void aCertificateSignedByAwsLcIsTheOneTheJavaPathSigns() throws Exception {
        KeyPair ca = Ed25519Keys.generate(new SecureRandom());
        Instant now = Instant.parse("2026-12-04T00:00:00Z");
        X509Certificate caCertificate = CertificateBuilder.selfSignedCa("sperli-ca-test",
                ca.getPublic(), ca.getPrivate(), now, now.plusSeconds(3600), new SecureRandom());
        KeyPair leaf = Ed25519Keys.generate(new SecureRandom());
        // The same serial from both: a random source that repeats itself.
        X509Certificate viaJava = leaf(CertificateBuilder.Issuer.of(caCertificate, ca.getPrivate()),
                leaf, now);
        X509Certificate viaAccp = leaf(
                CertificateBuilder.Issuer.of(caCertificate, ca.getPrivate(), Optional.of(accp)), leaf, now);
        assertArrayEquals(viaJava.getEncoded(), viaAccp.getEncoded());
        viaAccp.verify(caCertificate.getPublicKey());
    }

    private static X509Certificate leaf(CertificateBuilder.Issuer issuer, KeyPair leaf,
                                                           Instant now) {
        return CertificateBuilder.leaf(issuer, "sperli-test-0", leaf.getPublic(), "node0.example",
                CertificateBuilder.HostKind.DNS_NAME, now, now.plusSeconds(60), new RepeatingRandom());
    }

    private static byte[] seedOf(PrivateKey key) {
        byte[] pkcs8 = key.getEncoded();
        return Arrays.copyOfRange(pkcs8, pkcs8.length - 32, pkcs8.length);
    }

    /** Always the same bytes: two certificates built with it get the same serial number. */
    private static final class RepeatingRandom extends SecureRandom {
        @Override
        public void nextBytes(byte[] bytes) {
            Arrays.fill(bytes, (byte) 0x5a);
        }
    }
}
