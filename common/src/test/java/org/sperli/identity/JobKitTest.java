package org.sperli.identity;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sperli.crypto.Pem;
import org.sperli.jobspec.DescriptionLine;
import org.sperli.jobspec.JobDescription;
import org.sperli.jobspec.JoinToken;
import org.sperli.jobspec.JoinTokens;

/** The launcher's side of a job: every rank's hex line is its description, with a token that verifies. */
class JobKitTest {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Instant NOW = Instant.now();

    @Test
    void everyHexLineParsesToItsRanksDescriptionWithAValidToken() {
        JobKit kit = JobKit.create(hosts(3), 5000, Duration.ofHours(1), NOW, RANDOM);
        DescriptionLine[] lines = kit.lines(2, NOW);
        assertFalse(kit.signsMlDsaNatively(), "a small job signs in Java: AWS-LC's start would cost more");
        for (int rank = 0; rank < 3; rank++) {
            JobDescription d = parse(lines[rank].toBytes());
            lines[rank].wipe();
            assertNull(d.structuralFault());
            assertEquals(rank, d.rank());
            assertEquals(2, d.incarnation());
            assertEquals(kit.hosts(), d.hosts());
            assertArrayEquals(kit.jobPublicKey(), d.jobPublicKey());
            assertEquals(rank == 0, d.holdsSigningKey(), "only rank 0 gets the job signing key");
            verifyToken(kit, d);
        }
    }

    @Test
    void aLargeJobsTokensAndCertificatesMadeByAwsLcVerifyAsEveryOther() throws GeneralSecurityException {
        int size = JobKit.NATIVE_SIGNING_FROM;
        JobKit kit = JobKit.create(hosts(size), 5000, Duration.ofHours(1), NOW, RANDOM);
        assumeTrue(kit.signsMlDsaNatively(), "ACCP's native library does not load here: the tokens are signed in Java");
        for (int rank : new int[] {0, 1, size / 2, size - 1}) {
            JobDescription d = kit.description(rank, 1, NOW);
            try {
                verifyToken(kit, d);
                assertNull(d.structuralFault());
                // Key and certificate made by AWS-LC too: the certificate is the CA's, the key is its subject's.
                X509Certificate certificate = Pem.parseCertificate(d.rankCertPem());
                certificate.verify(Pem.parseCertificate(d.caCertPem()).getPublicKey());
                Signature signer = Signature.getInstance("Ed25519");
                signer.initSign(Pem.parseEd25519PrivateKey(d.rankKeyPem()));
                signer.update(d.token());
                Signature verifier = Signature.getInstance("Ed25519");
                verifier.initVerify(certificate.getPublicKey());
                verifier.update(d.token());
                assertTrue(verifier.verify(signer.sign()), "rank " + rank + "'s key is its certificate's");
            } finally {
                d.destroySecrets();
            }
        }
    }

    private static void verifyToken(JobKit kit, JobDescription d) {
        JoinToken token = JoinTokens.verify(d.token(), kit.jobPublicKey(), kit.job(), d.rank(), d.rank(), d.size(),
                d.incarnation(), d.ownHost().host(), NOW.toEpochMilli());
        assertEquals(d.rank(), token.rank());
    }

    private static JobDescription parse(byte[] line) {
        try {
            String text = new String(line, StandardCharsets.US_ASCII).strip();
            return JobDescription.parseLine(text.getBytes(StandardCharsets.US_ASCII));
        } finally {
            Arrays.fill(line, (byte) 0);
        }
    }

    private static List<JobDescription.HostEntry> hosts(int size) {
        List<JobDescription.HostEntry> hosts = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            hosts.add(new JobDescription.HostEntry("node" + r + ".example", 47000 + r % 1000));
        }
        return hosts;
    }
}
