package org.sperli.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Base64;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** PEM text: round trips of a certificate and an Ed25519 key, and every malformed form refused clearly. */
class PemTest {
    private static X509Certificate certificate;
    private static KeyPair pair;

    @BeforeAll
    static void build() {
        pair = OddCertificates.keyPair("Ed25519");
        Instant now = Instant.parse("2030-01-01T00:00:00Z");
        certificate = CertificateBuilder.selfSignedCa("pem-test", pair.getPublic(), pair.getPrivate(), now,
                now.plusSeconds(3600), new SecureRandom());
    }

    @Test
    void certificateRoundTrips() throws Exception {
        String pem = Pem.certificate(certificate);
        assertTrue(pem.startsWith("-----BEGIN CERTIFICATE-----\n"), pem);
        assertTrue(pem.endsWith("-----END CERTIFICATE-----\n"), pem);
        assertTrue(pem.lines().allMatch(line -> line.length() <= 64), pem);
        assertArrayEquals(certificate.getEncoded(), Pem.parseCertificate(pem).getEncoded());
    }

    @Test
    void certificateWithCrLfAndSurroundingBlanksParses() throws Exception {
        String pem = "\n  " + Pem.certificate(certificate).replace("\n", "\r\n") + "\n\n";
        assertArrayEquals(certificate.getEncoded(), Pem.parseCertificate(pem).getEncoded());
    }

    @Test
    void ed25519KeyRoundTrips() {
        String pem = Pem.privateKey(pair.getPrivate());
        assertTrue(pem.startsWith("-----BEGIN PRIVATE KEY-----\n"), pem);
        PrivateKey parsed = Pem.parseEd25519PrivateKey(pem);
        assertArrayEquals(pair.getPrivate().getEncoded(), parsed.getEncoded());
    }

    @Test
    void refusesMissingHeader() {
        String body = Base64.getEncoder().encodeToString(new byte[] {1, 2, 3});
        assertMalformed(() -> Pem.decode(Pem.CERTIFICATE, body + "\n-----END CERTIFICATE-----\n"), "does not start");
    }

    @Test
    void refusesMissingFooter() {
        String pem = Pem.certificate(certificate);
        assertMalformed(() -> Pem.parseCertificate(pem.substring(0, pem.indexOf("-----END"))), "does not end");
    }

    @Test
    void refusesAnotherLabel() {
        String key = Pem.privateKey(pair.getPrivate());
        assertMalformed(() -> Pem.parseCertificate(key), "does not start");
    }

    @Test
    void refusesTwoBlocks() {
        String pem = Pem.certificate(certificate);
        assertMalformed(() -> Pem.parseCertificate(pem + pem), "more than one block");
    }

    @Test
    void refusesTextAfterTheBlock() {
        String pem = Pem.certificate(certificate);
        assertMalformed(() -> Pem.parseCertificate(pem + "trailing"), "does not end");
    }

    @Test
    void refusesBadBase64() {
        assertMalformed(() -> Pem.decode(Pem.CERTIFICATE,
                "-----BEGIN CERTIFICATE-----\nAB*D\n-----END CERTIFICATE-----\n"), "base64");
    }

    @Test
    void refusesEmptyBlock() {
        assertMalformed(() -> Pem.decode(Pem.CERTIFICATE,
                "-----BEGIN CERTIFICATE-----\n\n-----END CERTIFICATE-----\n"), "empty block");
    }

    @Test
    void refusesBytesAfterTheCertificate() throws Exception {
        byte[] der = certificate.getEncoded();
        byte[] longer = java.util.Arrays.copyOf(der, der.length + 1);
        assertMalformed(() -> Pem.parseCertificate(Pem.encode(Pem.CERTIFICATE, longer)), "bytes after");
    }

    @Test
    void refusesDerThatIsNoCertificate() {
        assertMalformed(() -> Pem.parseCertificate(Pem.encode(Pem.CERTIFICATE, new byte[] {0x30, 0x03, 1, 2, 3})),
                "not an X.509 certificate");
    }

    @Test
    void refusesAKeyThatIsNotEd25519WithoutQuotingIt() {
        KeyPair ec = OddCertificates.keyPair("EC");
        String pem = Pem.privateKey(ec.getPrivate());
        IllegalArgumentException e = assertMalformed(() -> Pem.parseEd25519PrivateKey(pem), "not a PKCS#8 Ed25519");
        String body = pem.lines().skip(1).findFirst().orElseThrow();
        assertFalse(e.getMessage().contains(body), e.getMessage());
    }

    @Test
    void refusesMissingText() {
        assertMalformed(() -> Pem.decode(Pem.PRIVATE_KEY, null), "text missing");
    }

    private static IllegalArgumentException assertMalformed(Runnable parse, String rule) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, parse::run);
        assertTrue(e.getMessage().startsWith("PEM malformed"), e.getMessage());
        assertTrue(e.getMessage().contains(rule), e.getMessage());
        return e;
    }

    @Test
    void encodesWith64CharacterLines() {
        String pem = Pem.encode("X", new byte[100]);
        assertEquals(64, pem.lines().skip(1).findFirst().orElseThrow().length());
    }
}
