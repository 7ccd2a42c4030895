package org.sperli.identity;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import javax.security.auth.x500.X500Principal;
import org.bouncycastle.asn1.x509.AuthorityKeyIdentifier;
import org.bouncycastle.asn1.x509.SubjectKeyIdentifier;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.sperli.protocol.JobId;

/** The job CA and the rank certificates it issues. */
class JobCaTest {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Instant NOW = Instant.parse("2030-06-01T12:00:00.750Z");
    private static final String SERVER_AUTH = "1.3.6.1.5.5.7.3.1";
    private static final String CLIENT_AUTH = "1.3.6.1.5.5.7.3.2";

    private static JobId job;
    private static JobCa ca;

    @BeforeAll
    static void createCa() {
        job = JobId.random(RANDOM);
        ca = JobCa.create(job, NOW, Duration.ofHours(2), RANDOM);
    }

    @Test
    void caIsAnEd25519SelfSignedCaForKeyCertSign() throws Exception {
        X509Certificate c = ca.certificate();
        assertEquals("EdDSA", c.getPublicKey().getAlgorithm());
        assertEquals("Ed25519", c.getSigAlgName());
        assertEquals(0, c.getBasicConstraints(), "CA with path length 0");
        assertTrue(c.getCriticalExtensionOIDs().contains("2.5.29.19"), "basicConstraints critical");
        boolean[] keyUsage = c.getKeyUsage();
        assertTrue(keyUsage[5], "keyCertSign");
        assertFalse(keyUsage[0], "no digitalSignature");
        assertEquals(c.getSubjectX500Principal(), c.getIssuerX500Principal());
        c.verify(c.getPublicKey());
    }

    @Test
    void caValidityIsBackDatedForSkewAndEndsAfterTheLifetime() {
        assertEquals(Instant.parse("2030-06-01T11:55:00Z"), ca.notBefore());
        assertEquals(Instant.parse("2030-06-01T14:00:00Z"), ca.notAfter());
    }

    @Test
    void defaultLifetimeIsUsedWhenNoneIsGiven() {
        JobCa defaulted = JobCa.create(job, NOW, RANDOM);
        assertEquals(NOW.plus(JobCa.DEFAULT_LIFETIME).truncatedTo(java.time.temporal.ChronoUnit.SECONDS),
                defaulted.notAfter());
    }

    @Test
    void rankCertificateHasExactlyOneCnNamingJobAndRank() {
        X509Certificate c = issue(17, "node17.example").certificate();
        assertEquals("CN=sperli-" + job.hex() + "-17", c.getSubjectX500Principal().getName(X500Principal.RFC2253));
        assertEquals(ca.certificate().getSubjectX500Principal(), c.getIssuerX500Principal());
    }

    @Test
    void largestRankNameIs44Bytes() {
        X509Certificate c = issue(4095, "node.example").certificate();
        String cn = c.getSubjectX500Principal().getName(X500Principal.RFC2253).substring("CN=".length());
        assertEquals(44, cn.getBytes(StandardCharsets.UTF_8).length);
        assertEquals(44, PeerIdentity.MAX_COMMON_NAME_LENGTH);
    }

    @Test
    void dnsHostGoesIntoTheSanAsDnsNameOnly() throws Exception {
        assertEquals(List.of(List.of(2, "node3.example")), sans(issue(3, "node3.example").certificate()));
    }

    @Test
    void ipv4HostGoesIntoTheSanAsIpAddressOnly() throws Exception {
        assertEquals(List.of(List.of(7, "10.1.2.3")), sans(issue(3, "10.1.2.3").certificate()));
    }

    @Test
    void rankCertificateIsEd25519ForServerAndClientAuth() throws Exception {
        RankCredentials r = issue(0, "node0.example");
        X509Certificate c = r.certificate();
        assertEquals("EdDSA", c.getPublicKey().getAlgorithm());
        assertEquals("EdDSA", r.privateKey().getAlgorithm());
        assertEquals(List.of(SERVER_AUTH, CLIENT_AUTH), c.getExtendedKeyUsage());
        assertTrue(c.getKeyUsage()[0], "digitalSignature");
        assertEquals(-1, c.getBasicConstraints(), "not a CA");
        c.verify(ca.certificate().getPublicKey());
        RankIdentity.checkRankCertificate(ca.certificate(), c, r.privateKey(), job, 0);
    }

    @Test
    void everyRankCertificateNamesTheCaKeyAsItsAuthorityKey() throws Exception {
        byte[] caKeyId = SubjectKeyIdentifier.getInstance(
                JcaX509ExtensionUtils.parseExtensionValue(ca.certificate().getExtensionValue("2.5.29.14")))
                .getKeyIdentifier();
        for (int rank = 0; rank < 3; rank++) {
            X509Certificate c = issue(rank, "node" + rank + ".example").certificate();
            byte[] authorityKeyId = AuthorityKeyIdentifier.getInstance(
                    JcaX509ExtensionUtils.parseExtensionValue(c.getExtensionValue("2.5.29.35"))).getKeyIdentifier();
            assertArrayEquals(caKeyId, authorityKeyId);
            c.verify(ca.certificate().getPublicKey());
        }
    }

    @Test
    void rankValidityIsTheGivenPeriodInWholeSeconds() {
        RankCredentials r = ca.issueRankCertificate(job, 1, "node1.example", NOW.minusSeconds(60), NOW.plusSeconds(60));
        assertEquals(Instant.parse("2030-06-01T11:59:00Z"), r.certificate().getNotBefore().toInstant());
        assertEquals(Instant.parse("2030-06-01T12:01:00Z"), r.certificate().getNotAfter().toInstant());
    }

    @Test
    void validityOutsideTheCaIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> ca.issueRankCertificate(job, 1, "node1.example",
                NOW.minus(Duration.ofMinutes(6)), NOW.plusSeconds(60)));
        assertThrows(IllegalArgumentException.class, () -> ca.issueRankCertificate(job, 1, "node1.example",
                NOW, NOW.plus(Duration.ofHours(3))));
        assertThrows(IllegalArgumentException.class, () -> ca.issueRankCertificate(job, 1, "node1.example",
                NOW, NOW));
    }

    @Test
    void anotherJobRankOutOfRangeOrBadHostIsRefused() {
        JobId other = JobId.random(RANDOM);
        assertThrows(IllegalArgumentException.class, () -> ca.issueRankCertificate(other, 1, "a.example", NOW));
        assertThrows(IllegalArgumentException.class, () -> ca.issueRankCertificate(job, 4096, "a.example", NOW));
        assertThrows(IllegalArgumentException.class, () -> ca.issueRankCertificate(job, -1, "a.example", NOW));
        assertThrows(IllegalArgumentException.class, () -> ca.issueRankCertificate(job, 1, "A.example", NOW));
        assertThrows(IllegalArgumentException.class, () -> ca.issueRankCertificate(job, 1, "01.2.3.4", NOW));
        assertThrows(IllegalArgumentException.class, () -> ca.issueRankCertificate(job, 1, "::1", NOW));
    }

    @Test
    void pemOutAndInGivesTheSameCertificateAndKey() throws Exception {
        RankCredentials r = issue(5, "node5.example");
        RankCredentials back = RankCredentials.fromPem(r.certificatePem(), r.privateKeyPem());
        assertArrayEquals(r.certificate().getEncoded(), back.certificate().getEncoded());
        assertArrayEquals(r.privateKey().getEncoded(), back.privateKey().getEncoded());
        assertArrayEquals(ca.certificate().getEncoded(),
                org.sperli.crypto.Pem.parseCertificate(ca.certificatePem()).getEncoded());
    }

    @Test
    void toStringShowsNoKey() {
        RankCredentials r = issue(6, "node6.example");
        String keyBody = r.privateKeyPem().lines().skip(1).findFirst().orElseThrow();
        assertFalse(r.toString().contains(keyBody), r.toString());
        assertTrue(r.toString().contains("redacted"));
        assertTrue(ca.toString().contains("redacted"));
    }

    private static RankCredentials issue(int rank, String host) {
        return ca.issueRankCertificate(job, rank, host, NOW);
    }

    private static List<List<?>> sans(X509Certificate c) throws Exception {
        Collection<List<?>> names = c.getSubjectAlternativeNames();
        assertTrue(names != null);
        return new ArrayList<>(names);
    }

    @Test
    void caCertificateHasNoSan() throws Exception {
        assertNull(ca.certificate().getSubjectAlternativeNames());
    }
}
