package org.sperli.checkpoint;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.crypto.Sha256;
import org.sperli.jobspec.JobSpecSamples;
import org.sperli.protocol.JobId;

class RankFilesTest {
    private static final JobId JOB = JobSpecSamples.JOB;
    private static final byte[] STATE = "state bytes of rank 1".getBytes(StandardCharsets.US_ASCII);

    private static byte[] wholeFile() {
        RankFileHeader h = RankFileHeader.forState(JOB, 3, 1, 2, ByteBuffer.wrap(STATE));
        ByteBuffer file = ByteBuffer.allocate(80 + STATE.length);
        h.write(file);
        file.put(STATE);
        return file.array();
    }

    private static void refused(ErrorCode code, Executable e) {
        SperliException ex = assertThrows(SperliException.class, e);
        assertEquals(code, ex.code(), ex.getMessage());
    }

    @Test
    void sha256OfAbcIsTheFipsVector() {
        ByteBuffer abc = ByteBuffer.wrap("abc".getBytes(StandardCharsets.US_ASCII));
        assertEquals("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
                HexFormat.of().formatHex(Sha256.of(abc)));
        assertEquals(0, abc.position());
    }

    @Test
    void fileSha256IsTheHashOfHeaderThenState() {
        RankFileHeader h = RankFileHeader.forState(JOB, 3, 1, 2, ByteBuffer.wrap(STATE));
        assertArrayEquals(Sha256.of(ByteBuffer.wrap(wholeFile())),
                RankFiles.fileSha256(h, ByteBuffer.wrap(STATE)));
    }

    @Test
    void acceptsStateThatHashesToTheHeader() {
        RankFileHeader h = RankFileHeader.forState(JOB, 3, 1, 2, ByteBuffer.wrap(STATE));
        RankFiles.verifyState(h, ByteBuffer.wrap(STATE));
    }

    @Test
    void refusesStateWhoseSha256DiffersWithH1620() {
        RankFileHeader h = RankFileHeader.forState(JOB, 3, 1, 2, ByteBuffer.wrap(STATE));
        byte[] other = STATE.clone();
        other[0] ^= 1;
        refused(ErrorCode.H1620, () -> RankFiles.verifyState(h, ByteBuffer.wrap(other)));
    }

    @Test
    void refusesStateOfAnotherLengthWithH1619() {
        RankFileHeader h = RankFileHeader.forState(JOB, 3, 1, 2, ByteBuffer.wrap(STATE));
        refused(ErrorCode.H1619, () -> RankFiles.verifyState(h, ByteBuffer.wrap(STATE, 0, STATE.length - 1)));
    }

    @Test
    void verifiesAWholeFileInMemory() {
        ByteBuffer file = ByteBuffer.wrap(wholeFile());
        RankFileHeader h = RankFiles.verifyFile(file, JOB, 3, 1, 2);
        assertEquals(STATE.length, h.stateLength());
        assertEquals(0, file.position());
    }

    @Test
    void refusesWholeFileWithFlippedStateByteWithH1620() {
        byte[] file = wholeFile();
        file[file.length - 1] ^= 0x40;
        refused(ErrorCode.H1620, () -> RankFiles.verifyFile(ByteBuffer.wrap(file), JOB, 3, 1, 2));
    }

    @Test
    void refusesWholeFileCutAtEveryLengthWithH1619() {
        byte[] file = wholeFile();
        for (int n = 0; n < file.length; n++) {
            byte[] cut = Arrays.copyOf(file, n);
            refused(ErrorCode.H1619, () -> RankFiles.verifyFile(ByteBuffer.wrap(cut), JOB, 3, 1, 2));
        }
    }

    @Test
    void refusesWholeFileWithTrailingByteWithH1619() {
        byte[] file = Arrays.copyOf(wholeFile(), wholeFile().length + 1);
        refused(ErrorCode.H1619, () -> RankFiles.verifyFile(ByteBuffer.wrap(file), JOB, 3, 1, 2));
    }

    @Test
    void refusesWholeFileOfAnotherSizeWithH1623() {
        refused(ErrorCode.H1623, () -> RankFiles.verifyFile(ByteBuffer.wrap(wholeFile()), JOB, 3, 1, 3));
    }
}
