package org.sperli.checkpoint;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.crypto.Sha256;
import org.sperli.jobspec.JobSpecSamples;
import org.sperli.protocol.JobId;

class RankFileHeaderTest {
    private static final JobId JOB = JobSpecSamples.JOB;
    private static final byte[] STATE = "the state of rank 2".getBytes(StandardCharsets.US_ASCII);

    private static RankFileHeader sample() {
        return RankFileHeader.forState(JOB, 7, 2, 4, ByteBuffer.wrap(STATE));
    }

    /** The sample header written field by field. */
    private static ByteBuffer sampleBytes() {
        ByteBuffer b = ByteBuffer.allocate(80).order(ByteOrder.LITTLE_ENDIAN);
        b.put("SPRLCKPT".getBytes(StandardCharsets.US_ASCII)); // magic
        b.putInt(1);                                           // version
        b.putInt(7);                                           // epoch
        b.put(JOB.toBytes());                                  // job id
        b.putInt(2);                                           // rank
        b.putInt(4);                                           // size
        b.putLong(STATE.length);                               // state length
        b.put(Sha256.of(ByteBuffer.wrap(STATE)));       // SHA-256 of the state
        return b.flip();
    }

    private static SperliException refused(ErrorCode code, Executable e) {
        SperliException ex = assertThrows(SperliException.class, e);
        assertEquals(code, ex.code(), ex.getMessage());
        return ex;
    }

    private static void assertReadRefusedH1619(byte[] bytes) {
        refused(ErrorCode.H1619, () -> RankFileHeader.read(ByteBuffer.wrap(bytes)));
    }

    @Test
    void headerIs80Bytes() {
        assertEquals(80, RankFileHeader.LENGTH);
        assertEquals(80, sample().encodedLength());
        assertEquals(80, sample().toBytes().length);
    }

    @Test
    void writesFieldByField() {
        assertArrayEquals(sampleBytes().array(), sample().toBytes());
    }

    @Test
    void readsFieldByField() {
        RankFileHeader h = RankFileHeader.read(sampleBytes());
        assertEquals(1, h.version());
        assertEquals(7, h.epoch());
        assertEquals(JOB, h.jobId());
        assertEquals(2, h.rank());
        assertEquals(4, h.size());
        assertEquals(STATE.length, h.stateLength());
        assertArrayEquals(Sha256.of(ByteBuffer.wrap(STATE)), h.stateSha256());
        assertEquals(sample(), h);
    }

    @Test
    void readsFromPositionToLimitWithoutMovingPosition() {
        ByteBuffer b = ByteBuffer.allocate(100);
        b.position(7);
        b.put(sample().toBytes());
        b.position(7).limit(87);
        assertEquals(sample(), RankFileHeader.read(b));
        assertEquals(7, b.position());
    }

    @Test
    void forStateDoesNotMoveTheState() {
        ByteBuffer state = ByteBuffer.wrap(STATE);
        state.position(3);
        RankFileHeader h = RankFileHeader.forState(JOB, 1, 0, 1, state);
        assertEquals(3, state.position());
        assertEquals(STATE.length - 3, h.stateLength());
    }

    @Test
    void refusesBadMagicInRankFileWithH1619() {
        byte[] bytes = sample().toBytes();
        bytes[7] = 'X';
        assertReadRefusedH1619(bytes);
        byte[] commitMagic = sample().toBytes();
        System.arraycopy("SPRLCMIT".getBytes(StandardCharsets.US_ASCII), 0, commitMagic, 0, 8);
        assertReadRefusedH1619(commitMagic);
    }

    @Test
    void refusesVersionOtherThan1WithH1619() {
        for (int version : new int[] {0, 2, -1}) {
            byte[] bytes = sample().toBytes();
            ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(RankFileHeader.VERSION_OFFSET, version);
            assertReadRefusedH1619(bytes);
        }
    }

    @Test
    void refusesStateLengthNoFileCanHaveWithH1619() {
        byte[] bytes = sample().toBytes();
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putLong(RankFileHeader.STATE_LENGTH_OFFSET, -1L);
        assertReadRefusedH1619(bytes);
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN)
                .putLong(RankFileHeader.STATE_LENGTH_OFFSET, Long.MAX_VALUE - 79);
        assertReadRefusedH1619(bytes);
    }

    @Test
    void refusesCutHeaderAtEveryLengthWithH1619() {
        byte[] bytes = sample().toBytes();
        for (int n = 0; n < bytes.length; n++) {
            assertReadRefusedH1619(Arrays.copyOf(bytes, n));
        }
    }

    @Test
    void refusesTrailingByteWithH1619() {
        assertReadRefusedH1619(Arrays.copyOf(sample().toBytes(), 81));
    }

    @Test
    void acceptsTheExpectedFile() {
        sample().expect(JOB, 7, 2, 4, 80 + STATE.length);
    }

    @Test
    void refusesRankFileOfAnotherJobWithH1619() {
        refused(ErrorCode.H1619, () -> sample().expect(JobSpecSamples.OTHER_JOB, 7, 2, 4, 80 + STATE.length));
    }

    @Test
    void refusesRankFileOfAnotherEpochWithH1619() {
        refused(ErrorCode.H1619, () -> sample().expect(JOB, 6, 2, 4, 80 + STATE.length));
    }

    @Test
    void refusesRankFileOfAnotherRankWithH1619() {
        refused(ErrorCode.H1619, () -> sample().expect(JOB, 7, 1, 4, 80 + STATE.length));
    }

    @Test
    void refusesRankFileOfAnotherSizeWithH1623() {
        refused(ErrorCode.H1623, () -> sample().expect(JOB, 7, 2, 5, 80 + STATE.length));
    }

    @Test
    void refusesFileLengthOtherThan80PlusStateLengthWithH1619() {
        long exact = 80 + STATE.length;
        refused(ErrorCode.H1619, () -> sample().expect(JOB, 7, 2, 4, exact - 1));
        sample().expect(JOB, 7, 2, 4, exact);
        SperliException e = refused(ErrorCode.H1619, () -> sample().expect(JOB, 7, 2, 4, exact + 1));
        assertTrue(e.reason().contains("file length"), e.reason());
    }

    @Test
    void refusesToWriteWhatReadRefuses() {
        byte[] sha = new byte[32];
        assertThrows(IllegalArgumentException.class, () -> new RankFileHeader(2, 1, JOB, 0, 1, 0, sha).toBytes());
        assertThrows(IllegalArgumentException.class,
                () -> new RankFileHeader(1, 1L << 32, JOB, 0, 1, 0, sha).toBytes());
        assertThrows(IllegalArgumentException.class, () -> new RankFileHeader(1, 1, JOB, -1, 1, 0, sha).toBytes());
        assertThrows(IllegalArgumentException.class, () -> new RankFileHeader(1, 1, JOB, 0, 1, -1, sha).toBytes());
        assertThrows(IllegalArgumentException.class,
                () -> new RankFileHeader(1, 1, JOB, 0, 1, 0, new byte[31]).toBytes());
    }
}
