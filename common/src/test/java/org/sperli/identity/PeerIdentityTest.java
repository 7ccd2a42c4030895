package org.sperli.identity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.crypto.CertificateBuilder;
import org.sperli.crypto.OddCertificates;
import org.sperli.protocol.JobId;

/** The peer certificate checks: subject, key type and SAN, each refusing with H1611. */
class PeerIdentityTest {
    private static final SecureRandom RANDOM = new SecureRandom();

    private static JobId job;
    private static JobCa ca;
    private static PrivateKey caKey;
    private static X509Certificate caCert;
    private static KeyPair leafKey;

    @BeforeAll
    static void setUp() {
        job = JobId.random(RANDOM);
        // A CA whose key the test holds, to sign certificates the job CA would never issue.
        KeyPair pair = OddCertificates.keyPair("Ed25519");
        caKey = pair.getPrivate();
        caCert = CertificateBuilder.selfSignedCa("test-ca", pair.getPublic(), pair.getPrivate(),
                Instant.now().minusSeconds(60), Instant.now().plusSeconds(3600), RANDOM);
        ca = JobCa.create(job, Instant.now(), RANDOM);
        leafKey = OddCertificates.keyPair("Ed25519");
    }

    @Test
    void rankOfReadsTheRankOfAWellNamedCertificate() {
        assertEquals(0, PeerIdentity.rankOf(withCn("sperli-" + job.hex() + "-0"), job, 1));
        assertEquals(4095, PeerIdentity.rankOf(withCn("sperli-" + job.hex() + "-4095"), job, 4096));
        X509Certificate issued = ca.issueRankCertificate(job, 12, "node.example", Instant.now()).certificate();
        assertEquals(12, PeerIdentity.rankOf(issued, job, 13));
    }

    @Test
    void rankOfRefusesAnotherJob() {
        JobId other = JobId.random(RANDOM);
        assertH1611(() -> PeerIdentity.rankOf(withCn("sperli-" + other.hex() + "-1"), job, 4));
    }

    @Test
    void rankOfRefusesAPrefixThatIsNotExact() {
        assertH1611(() -> PeerIdentity.rankOf(withCn("Sperli-" + job.hex() + "-1"), job, 4));
        assertH1611(() -> PeerIdentity.rankOf(withCn("xsperli-" + job.hex() + "-1"), job, 4));
        assertH1611(() -> PeerIdentity.rankOf(withCn("sperli-" + job.hex().toUpperCase() + "-1"), job, 4));
        assertH1611(() -> PeerIdentity.rankOf(withCn("sperli-" + job.hex() + "1"), job, 4));
    }

    @Test
    void rankOfRefusesLeadingZerosSignsAndTrailingText() {
        assertH1611(() -> PeerIdentity.rankOf(withCn("sperli-" + job.hex() + "-01"), job, 4));
        assertH1611(() -> PeerIdentity.rankOf(withCn("sperli-" + job.hex() + "-00"), job, 4));
        assertH1611(() -> PeerIdentity.rankOf(withCn("sperli-" + job.hex() + "-+1"), job, 4));
        assertH1611(() -> PeerIdentity.rankOf(withCn("sperli-" + job.hex() + "-1 "), job, 4));
        assertH1611(() -> PeerIdentity.rankOf(withCn("sperli-" + job.hex() + "-"), job, 4));
        // One CN whose value holds a comma: RFC 2253 escapes it, and it is trailing text, not a second attribute.
        assertH1611(() -> PeerIdentity.rankOf(withCn("sperli-" + job.hex() + "-1,O=x"), job, 4));
    }

    @Test
    void rankOfRefusesARankAtOrAboveSize() {
        assertH1611(() -> PeerIdentity.rankOf(withCn("sperli-" + job.hex() + "-4"), job, 4));
        assertH1611(() -> PeerIdentity.rankOf(withCn("sperli-" + job.hex() + "-4096"), job, Integer.MAX_VALUE));
        assertH1611(() -> PeerIdentity.rankOf(withCn("sperli-" + job.hex() + "-99999999999"), job, 4));
    }

    @Test
    void rankOfRefusesASubjectWithMoreThanOneCnOrAnotherAttribute() {
        String cn = "CN=sperli-" + job.hex() + "-1";
        assertH1611(() -> PeerIdentity.rankOf(withSubject(cn + ",CN=sperli-" + job.hex() + "-2"), job, 4));
        assertH1611(() -> PeerIdentity.rankOf(withSubject(cn + "+CN=x"), job, 4));
        assertH1611(() -> PeerIdentity.rankOf(withSubject(cn + ",O=sperli"), job, 4));
        assertH1611(() -> PeerIdentity.rankOf(withSubject("O=sperli," + cn), job, 4));
        assertH1611(() -> PeerIdentity.rankOf(withSubject("O=sperli-" + job.hex() + "-1"), job, 4));
    }

    @Test
    void requireEd25519RefusesAnotherKeyType() {
        X509Certificate ec = OddCertificates.leaf(caCert, caKey, "CN=sperli-" + job.hex() + "-1",
                OddCertificates.keyPair("EC").getPublic(), List.of("a.example"), List.of());
        assertH1611(() -> PeerIdentity.requireEd25519(ec));
        PeerIdentity.requireEd25519(withCn("sperli-" + job.hex() + "-1"));
    }

    @Test
    void sanMatchesTheDialedDnsNameInAnyAsciiCase() {
        X509Certificate c = withSans(List.of("node1.example"), List.of());
        PeerIdentity.checkSan(c, "node1.example");
        PeerIdentity.checkSan(c, "NODE1.Example");
    }

    @Test
    void sanMatchesTheDialedIpv4AsAnAddress() {
        PeerIdentity.checkSan(withSans(List.of(), List.of("10.0.0.7")), "10.0.0.7");
    }

    @Test
    void sanRefusesAnotherHost() {
        assertH1611(() -> PeerIdentity.checkSan(withSans(List.of("node1.example"), List.of()), "node2.example"));
        assertH1611(() -> PeerIdentity.checkSan(withSans(List.of("node1.example"), List.of()), "1.example"));
        assertH1611(() -> PeerIdentity.checkSan(withSans(List.of(), List.of("10.0.0.7")), "10.0.0.8"));
    }

    @Test
    void sanNeverMatchesAnAddressAsADnsNameNorTheOtherWayRound() {
        assertH1611(() -> PeerIdentity.checkSan(withSans(List.of("10.0.0.7"), List.of()), "10.0.0.7"));
        X509Certificate viaBuilder = CertificateBuilder.leaf(caCert, caKey, "CN=x", leafKey.getPublic(), "10.0.0.7",
                CertificateBuilder.HostKind.DNS_NAME, Instant.now(), Instant.now().plusSeconds(60), RANDOM);
        assertH1611(() -> PeerIdentity.checkSan(viaBuilder, "10.0.0.7"));
    }

    @Test
    void sanRefusesWildcardsNoSanAndMoreThanOneEntry() {
        assertH1611(() -> PeerIdentity.checkSan(withSans(List.of("*.example"), List.of()), "node1.example"));
        assertH1611(() -> PeerIdentity.checkSan(withSans(List.of(), List.of()), "node1.example"));
        assertH1611(() -> PeerIdentity.checkSan(
                withSans(List.of("node1.example"), List.of("10.0.0.7")), "node1.example"));
        assertH1611(() -> PeerIdentity.checkSan(
                withSans(List.of("node1.example", "node2.example"), List.of()), "node1.example"));
    }

    @Test
    void sanRefusesAnUnknownDialedHost() {
        assertH1611(() -> PeerIdentity.checkSan(withSans(List.of("node1.example"), List.of()), null));
        assertH1611(() -> PeerIdentity.checkSan(withSans(List.of("node1.example"), List.of()), ""));
    }

    @Test
    void commonNameIsTheSpecForm() {
        assertEquals("sperli-" + job.hex() + "-7", PeerIdentity.commonName(job, 7));
    }

    /** A certificate whose subject is one CN with exactly this value, no string parsing in between. */
    private static X509Certificate withCn(String cn) {
        return OddCertificates.leafWithCommonName(caCert, caKey, cn, leafKey.getPublic());
    }

    private static X509Certificate withSubject(String subject) {
        return OddCertificates.leaf(caCert, caKey, subject, leafKey.getPublic(), List.of("a.example"), List.of());
    }

    private static X509Certificate withSans(List<String> dns, List<String> ips) {
        return OddCertificates.leaf(caCert, caKey, "CN=sperli-" + job.hex() + "-1", leafKey.getPublic(), dns, ips);
    }

    static void assertH1611(Executable check) {
        SperliException e = assertThrows(SperliException.class, check);
        assertEquals(ErrorCode.H1611, e.code(), e.getMessage());
        assertTrue(e.getMessage().startsWith("H1611 "), e.getMessage());
    }
}
