package org.sperli.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.bouncycastle.asn1.DERUTF8String;
import org.bouncycastle.asn1.x500.RDN;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.junit.jupiter.api.Test;

/**
 * A certificate written field by field, the job CA's and a rank's, is byte for byte the certificate Bouncy Castle's
 * builder makes from the same fields (the way the launcher made them before), which the JDK parses and whose signature
 * the CA's key verifies. Ed25519 signatures are deterministic, so equal TBS bytes give equal certificates.
 */
class CertificateDerTest {
    private static final Instant NOW = Instant.parse("2026-12-05T10:11:12Z");
    private static final KeyPair CA_KEY = Ed25519Keys.generate(new SecureRandom());
    private static final X509Certificate CA = CertificateBuilder.selfSignedCa("sperli-ca-00112233445566778899aabb",
            CA_KEY.getPublic(), CA_KEY.getPrivate(), NOW.minusSeconds(300), NOW.plusSeconds(86_400 * 30L),
            new SecureRandom());
    private static final CertificateBuilder.Issuer ISSUER = CertificateBuilder.Issuer.of(CA, CA_KEY.getPrivate());

    @Test
    void theCaCertificateIsTheOneBouncyCastleBuilds() throws Exception {
        for (BigInteger serial : List.of(BigInteger.ONE, BigInteger.TWO.pow(127), BigInteger.TWO.pow(128).subtract(
                BigInteger.ONE))) {
            KeyPair key = Ed25519Keys.generate(new SecureRandom());
            Ed25519ContentSigner signer = new Ed25519ContentSigner(Ed25519ContentSigner.keyOf(key.getPrivate()),
                    key.getPrivate(), null);
            byte[] direct = CertificateDer.selfSignedCa("sperli-ca-00112233445566778899aabb", key.getPublic(), serial,
                    NOW.minusSeconds(300), NOW.plusSeconds(86_400), signer::sign);
            assertArrayEquals(bouncyCastleCa(serial, "sperli-ca-00112233445566778899aabb", key, NOW.minusSeconds(300),
                    NOW.plusSeconds(86_400)), direct, "CA, serial " + serial);
            X509Certificate parsed = (X509Certificate) CertificateFactory.getInstance("X.509")
                    .generateCertificate(new ByteArrayInputStream(direct));
            parsed.verify(key.getPublic());
            assertEquals(0, parsed.getBasicConstraints());
        }
    }

    @Test
    void aRankCertificateIsTheOneBouncyCastleBuilds() throws Exception {
        KeyPair leaf = Ed25519Keys.generate(new SecureRandom());
        assertSameAsBouncyCastle(BigInteger.valueOf(0x7f), "sperli-00112233445566778899aabb-0", leaf.getPublic(),
                "node0.example", CertificateBuilder.HostKind.DNS_NAME, NOW.minusSeconds(300), NOW.plusSeconds(3600));
    }

    @Test
    void anIpv4HostIsAnIpAddressEntry() throws Exception {
        KeyPair leaf = Ed25519Keys.generate(new SecureRandom());
        for (String host : List.of("127.0.0.1", "10.0.0.7", "255.255.255.255", "0.0.0.0")) {
            X509Certificate certificate = assertSameAsBouncyCastle(BigInteger.TEN, "sperli-x-1", leaf.getPublic(),
                    host, CertificateBuilder.HostKind.IP_ADDRESS, NOW, NOW.plusSeconds(60));
            assertEquals(List.of(List.of(7, host)), List.copyOf(certificate.getSubjectAlternativeNames()).stream()
                    .map(List::copyOf).toList());
        }
    }

    @Test
    void longHostNamesTakeTheLongLengthForm() throws Exception {
        KeyPair leaf = Ed25519Keys.generate(new SecureRandom());
        // 253 characters: the longest DNS name; lengths past 127 and 255 in the SAN, the extensions and the TBS.
        String label = "a".repeat(63);
        String longest = label + "." + label + "." + label + "." + "b".repeat(61);
        for (String host : List.of("x", "a".repeat(100) + ".example", "c".repeat(120) + ".example", longest)) {
            assertSameAsBouncyCastle(BigInteger.TWO, "sperli-x-2", leaf.getPublic(), host,
                    CertificateBuilder.HostKind.DNS_NAME, NOW, NOW.plusSeconds(60));
        }
    }

    @Test
    void timesFrom2050AreGeneralizedTimes() throws Exception {
        KeyPair leaf = Ed25519Keys.generate(new SecureRandom());
        Instant lastUtc = Instant.parse("2049-12-31T23:59:59Z");
        assertSameAsBouncyCastle(BigInteger.ONE, "sperli-x-3", leaf.getPublic(), "h.example",
                CertificateBuilder.HostKind.DNS_NAME, Instant.parse("1950-01-01T00:00:00Z"), lastUtc);
        assertSameAsBouncyCastle(BigInteger.ONE, "sperli-x-3", leaf.getPublic(), "h.example",
                CertificateBuilder.HostKind.DNS_NAME, lastUtc, lastUtc.plusSeconds(1));
        assertSameAsBouncyCastle(BigInteger.ONE, "sperli-x-3", leaf.getPublic(), "h.example",
                CertificateBuilder.HostKind.DNS_NAME, Instant.parse("1949-12-31T23:59:59Z"),
                Instant.parse("2106-02-07T06:28:16Z"));
    }

    @Property(tries = 60)
    void anySerialRankAndTimeGiveBouncyCastlesBytes(@ForAll long seed, @ForAll @IntRange(max = 4095) int rank)
            throws Exception {
        Random random = new Random(seed);
        BigInteger serial;
        do {
            serial = new BigInteger(1 + random.nextInt(128), random);
        } while (serial.signum() == 0);
        Instant from = Instant.ofEpochSecond(NOW.getEpochSecond() - random.nextInt(1_000_000));
        Instant until = from.plusSeconds(1 + random.nextInt(100_000_000));
        KeyPair leaf = Ed25519Keys.generate(new SecureRandom());
        assertSameAsBouncyCastle(serial, "sperli-00112233445566778899aabb-" + rank, leaf.getPublic(),
                "node" + rank + ".example", CertificateBuilder.HostKind.DNS_NAME, from, until);
    }

    @Test
    void aKeyThatIsNotEd25519IsRefused() throws Exception {
        PublicKey rsa = java.security.KeyPairGenerator.getInstance("RSA").generateKeyPair().getPublic();
        assertThrows(IllegalArgumentException.class, () -> CertificateDer.leaf(ISSUER, BigInteger.ONE, "cn", rsa,
                "h.example", CertificateBuilder.HostKind.DNS_NAME, NOW, NOW.plusSeconds(1)));
    }

    @Test
    void aSerialThatIsNotPositiveIsRefused() {
        PublicKey key = Ed25519Keys.generate(new SecureRandom()).getPublic();
        for (BigInteger serial : List.of(BigInteger.ZERO, BigInteger.ONE.negate())) {
            assertThrows(IllegalArgumentException.class, () -> CertificateDer.leaf(ISSUER, serial, "cn", key,
                    "h.example", CertificateBuilder.HostKind.DNS_NAME, NOW, NOW.plusSeconds(1)));
        }
    }

    @Test
    void lengthsUseTheShortFormBelow128AndTheShortestLongFormAbove() {
        assertArrayEquals(new byte[] {0x04, 0x7f}, java.util.Arrays.copyOf(
                CertificateDer.tlv(0x04, new byte[127]), 2));
        assertArrayEquals(new byte[] {0x04, (byte) 0x81, (byte) 0x80}, java.util.Arrays.copyOf(
                CertificateDer.tlv(0x04, new byte[128]), 3));
        assertArrayEquals(new byte[] {0x04, (byte) 0x82, 0x01, 0x00}, java.util.Arrays.copyOf(
                CertificateDer.tlv(0x04, new byte[256]), 4));
        assertEquals(4 + 256, CertificateDer.tlv(0x04, new byte[256]).length);
    }

    /** Both ways, compared; the direct one parsed by the JDK and verified under the CA key. */
    private static X509Certificate assertSameAsBouncyCastle(BigInteger serial, String commonName, PublicKey key,
                                                            String host, CertificateBuilder.HostKind kind,
                                                            Instant from, Instant until) throws Exception {
        byte[] direct = CertificateDer.leaf(ISSUER, serial, commonName, key, host, kind, from, until);
        byte[] reference = bouncyCastleLeaf(serial, commonName, key, host, kind, from, until, CA_KEY.getPrivate());
        assertArrayEquals(reference, direct, "leaf for " + host + ", serial " + serial + ", " + from + ".." + until);
        X509Certificate parsed = (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(direct));
        parsed.verify(CA.getPublicKey());
        assertArrayEquals(direct, parsed.getEncoded());
        return parsed;
    }

    /** The launcher's CA certificate before it wrote the DER itself. */
    private static byte[] bouncyCastleCa(BigInteger serial, String commonName, KeyPair key, Instant from,
                                         Instant until) throws Exception {
        X500Name name = new X500Name(new RDN[] {new RDN(BCStyle.CN, new DERUTF8String(commonName))});
        X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(name, serial, Date.from(from),
                Date.from(until), name, key.getPublic())
                .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
                .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign))
                .addExtension(Extension.subjectKeyIdentifier, false,
                        new JcaX509ExtensionUtils().createSubjectKeyIdentifier(key.getPublic()));
        return builder.build(new Ed25519ContentSigner(Ed25519ContentSigner.keyOf(key.getPrivate()), key.getPrivate(),
                null)).getEncoded();
    }

    /** The launcher's leaf before it wrote the DER itself: Bouncy Castle's builder with the same extensions. */
    private static byte[] bouncyCastleLeaf(BigInteger serial, String commonName, PublicKey key, String host,
                                           CertificateBuilder.HostKind kind, Instant from, Instant until,
                                           PrivateKey caKey) throws Exception {
        JcaX509ExtensionUtils utils = new JcaX509ExtensionUtils();
        GeneralName san = new GeneralName(kind == CertificateBuilder.HostKind.IP_ADDRESS
                ? GeneralName.iPAddress : GeneralName.dNSName, host);
        X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(CA, serial, Date.from(from),
                Date.from(until), new X500Name(new RDN[] {new RDN(BCStyle.CN, new DERUTF8String(commonName))}), key)
                .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
                .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(
                        new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth}))
                .addExtension(Extension.subjectAlternativeName, false, new GeneralNames(san))
                .addExtension(Extension.subjectKeyIdentifier, false, utils.createSubjectKeyIdentifier(key))
                .addExtension(Extension.authorityKeyIdentifier, false,
                        utils.createAuthorityKeyIdentifier(CA.getPublicKey()));
        return builder.build(new Ed25519ContentSigner(Ed25519ContentSigner.keyOf(caKey), caKey, null)).getEncoded();
    }
}
