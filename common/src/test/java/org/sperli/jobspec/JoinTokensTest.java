package org.sperli.jobspec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sperli.identity.TestJob.EXPIRY_MS;
import static org.sperli.identity.TestJob.INCARNATION;
import static org.sperli.identity.TestJob.NOW_MS;

import java.security.SecureRandom;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.crypto.CompositeSig;
import org.sperli.identity.TestJob;
import org.sperli.jobspec.JoinToken;
import org.sperli.protocol.JobId;

/** Join token verification: every refusal of the original text is H1614; rank 2 of a job of 4 joins rank 3. */
class JoinTokensTest {
    private static final int RANK = 2;
    private static final int SIZE = 4;
    private static final String HOST = "node2.example";

    private static TestJob job;
    private static byte[] token;

    @BeforeAll
    static void setUp() {
        job = TestJob.create(List.of("node0.example", "node1.example", HOST, "10.0.0.3"));
        token = job.token(RANK);
    }

    @Test
    void acceptsTheTokenTheLauncherSigned() {
        JoinToken t = verify(token, RANK, RANK, NOW_MS);
        assertEquals(RANK, t.rank());
        assertEquals(HOST, t.host());
    }

    @Test
    void signedTokenIsTheCodecsLayoutWithA2484ByteSignature() {
        JoinToken t = JoinToken.read(java.nio.ByteBuffer.wrap(token));
        assertEquals(JoinToken.FIXED_LENGTH + HOST.length(), token.length);
        assertTrue(CompositeSig.verify(job.jobKey.publicKey(), t.signedPart(), t.signature(),
                CompositeSig.CONTEXT_JOIN));
    }

    @Test
    void refusesAFlippedSignatureBit() {
        byte[] bad = token.clone();
        bad[bad.length - 1] ^= 1;
        assertH1614("signature", () -> verify(bad, RANK, RANK, NOW_MS));
    }

    @Test
    void refusesAChangedSignedField() {
        byte[] bad = token.clone();
        bad[JoinToken.EXPIRY_OFFSET + 7] ^= 0x01;
        assertH1614("signature", () -> verify(bad, RANK, RANK, NOW_MS));
    }

    @Test
    void refusesATokenSignedWithAnotherKey() {
        CompositeSig.KeyPair other = CompositeSig.generate(new SecureRandom());
        byte[] forged = JoinTokens.sign(job.unsignedToken(RANK, EXPIRY_MS), other.secretKey());
        assertH1614("signature", () -> verify(forged, RANK, RANK, NOW_MS));
    }

    @Test
    void refusesATokenSignedUnderTheCommitContext() {
        JoinToken unsigned = job.unsignedToken(RANK, EXPIRY_MS);
        byte[] signature = CompositeSig.sign(job.jobKey.secretKey(), unsigned.signedPart(),
                CompositeSig.CONTEXT_COMMIT);
        byte[] wrongContext = unsigned.withSignature(signature).toBytes();
        assertH1614("signature", () -> verify(wrongContext, RANK, RANK, NOW_MS));
    }

    @Test
    void refusesAnotherJob() {
        JobId other = JobId.random(new SecureRandom());
        assertH1614("job id", () -> JoinTokens.verify(token, job.jobKey.publicKey(), other, RANK, RANK, SIZE,
                INCARNATION, HOST, NOW_MS));
    }

    @Test
    void refusesARankThatIsNotTheHeaderRank() {
        assertH1614("HELLO header", () -> verify(token, 1, RANK, NOW_MS));
        assertH1614("HELLO header", () -> verify(token, -1, RANK, NOW_MS));
    }

    @Test
    void refusesARankThatIsNotTheCertificateRank() {
        assertH1614("certificate", () -> verify(token, RANK, 1, NOW_MS));
    }

    @Test
    void refusesAnotherSize() {
        assertH1614("size", () -> JoinTokens.verify(token, job.jobKey.publicKey(), job.job, RANK, RANK, SIZE + 1,
                INCARNATION, HOST, NOW_MS));
    }

    @Test
    void refusesAnotherIncarnation() {
        assertH1614("incarnation", () -> JoinTokens.verify(token, job.jobKey.publicKey(), job.job, RANK, RANK, SIZE,
                INCARNATION + 1, HOST, NOW_MS));
    }

    @Test
    void refusesAHostThatIsNotTheHostListEntryOfThatRank() {
        assertH1614("host", () -> JoinTokens.verify(token, job.jobKey.publicKey(), job.job, RANK, RANK, SIZE,
                INCARNATION, "node3.example", NOW_MS));
    }

    @Test
    void refusesExpiryEqualToNow() {
        assertH1614("expiry", () -> verify(token, RANK, RANK, EXPIRY_MS));
    }

    @Test
    void refusesExpiryBeforeNow() {
        assertH1614("expiry", () -> verify(token, RANK, RANK, EXPIRY_MS + 1));
    }

    @Test
    void acceptsExpiryOneMillisecondLaterThanNow() {
        verify(token, RANK, RANK, EXPIRY_MS - 1);
    }

    @Test
    void refusesAMalformedToken() {
        assertH1614("join token", () -> verify(Arrays.copyOf(token, token.length - 1), RANK, RANK, NOW_MS));
        assertH1614("join token", () -> verify(new byte[0], RANK, RANK, NOW_MS));
    }

    @Test
    void refusesAJobPublicKeyOfTheWrongLength() {
        assertH1614("signature", () -> JoinTokens.verify(token, new byte[10], job.job, RANK, RANK, SIZE,
                INCARNATION, HOST, NOW_MS));
    }

    private static JoinToken verify(byte[] bytes, int headerRank, int certRank, long nowMs) {
        return JoinTokens.verify(bytes, job.jobKey.publicKey(), job.job, headerRank, certRank, SIZE, INCARNATION,
                HOST, nowMs);
    }

    private static void assertH1614(String field, Executable check) {
        SperliException e = assertThrows(SperliException.class, check);
        assertEquals(ErrorCode.H1614, e.code(), e.getMessage());
        assertTrue(e.getMessage().contains(field), e.getMessage());
    }
}
