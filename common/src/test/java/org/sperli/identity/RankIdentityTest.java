package org.sperli.identity;

import static org.sperli.identity.PeerIdentityTest.assertH1611;

import java.security.KeyPair;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.sperli.crypto.OddCertificates;
import org.sperli.protocol.JobId;

/** A rank's check of its own certificate and key against the job CA. */
class RankIdentityTest {
    private static final SecureRandom RANDOM = new SecureRandom();

    private static JobId job;
    private static JobCa ca;
    private static RankCredentials rank2;

    @BeforeAll
    static void setUp() {
        job = JobId.random(RANDOM);
        ca = JobCa.create(job, Instant.now(), RANDOM);
        rank2 = ca.issueRankCertificate(job, 2, "node2.example", Instant.now());
    }

    @Test
    void acceptsTheCertificateTheCaIssuedForThisRank() {
        RankIdentity.checkRankCertificate(ca.certificate(), rank2.certificate(), rank2.privateKey(), job, 2);
    }

    @Test
    void refusesACertificateOfAnotherCa() {
        JobCa other = JobCa.create(job, Instant.now(), RANDOM);
        RankCredentials foreign = other.issueRankCertificate(job, 2, "node2.example", Instant.now());
        assertH1611(() -> RankIdentity.checkRankCertificate(ca.certificate(), foreign.certificate(),
                foreign.privateKey(), job, 2));
    }

    @Test
    void refusesACertificateForAnotherRank() {
        assertH1611(() -> RankIdentity.checkRankCertificate(ca.certificate(), rank2.certificate(),
                rank2.privateKey(), job, 3));
    }

    @Test
    void refusesACertificateForAnotherJob() {
        JobId other = JobId.random(RANDOM);
        assertH1611(() -> RankIdentity.checkRankCertificate(ca.certificate(), rank2.certificate(),
                rank2.privateKey(), other, 2));
    }

    @Test
    void refusesAKeyThatIsNotTheCertificates() {
        RankCredentials rank3 = ca.issueRankCertificate(job, 3, "node3.example", Instant.now());
        assertH1611(() -> RankIdentity.checkRankCertificate(ca.certificate(), rank2.certificate(),
                rank3.privateKey(), job, 2));
        KeyPair ec = OddCertificates.keyPair("EC");
        assertH1611(() -> RankIdentity.checkRankCertificate(ca.certificate(), rank2.certificate(),
                ec.getPrivate(), job, 2));
    }

    @Test
    void refusesACertificateThatIsNotEd25519() {
        KeyPair caPair = OddCertificates.keyPair("Ed25519");
        X509Certificate testCa = OddCertificates.selfSignedCa("CN=test-ca", caPair);
        KeyPair ec = OddCertificates.keyPair("EC");
        X509Certificate ecLeaf = OddCertificates.leaf(testCa, caPair.getPrivate(), "CN=sperli-" + job.hex() + "-2",
                ec.getPublic(), List.of("node2.example"), List.of());
        assertH1611(() -> RankIdentity.checkRankCertificate(testCa, ecLeaf, ec.getPrivate(), job, 2));
    }
}
