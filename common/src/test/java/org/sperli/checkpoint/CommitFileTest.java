package org.sperli.checkpoint;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.crypto.Sha256;
import org.sperli.jobspec.JobSpecSamples;
import org.sperli.protocol.CommitLayout;
import org.sperli.protocol.JobId;
import org.sperli.protocol.frame.FrameType;

class CommitFileTest {
    private static final JobId JOB = JobSpecSamples.JOB;

    private static byte[] hash(int rank) {
        return JobSpecSamples.filled(32, 0x10 + rank);
    }

    private static List<byte[]> hashes(int size) {
        List<byte[]> hashes = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            hashes.add(hash(r));
        }
        return hashes;
    }

    private static CommitFile sample(int size) {
        return CommitFile.unsigned(9, JOB, hashes(size)).withSignature(JobSpecSamples.signature());
    }

    /** The COMMIT of size 2 written field by field. */
    private static ByteBuffer sampleBytes() {
        ByteBuffer b = ByteBuffer.allocate(2522 + 64).order(ByteOrder.LITTLE_ENDIAN);
        b.put("SPRLCMIT".getBytes(StandardCharsets.US_ASCII)); // magic
        b.putInt(1);                                           // version
        b.putInt(9);                                           // epoch
        b.put(JOB.toBytes());                                  // job id
        b.putInt(2);                                           // size
        b.put(hash(0));                                        // SHA-256 of rank 0's file
        b.put(hash(1));                                        // SHA-256 of rank 1's file
        b.putShort((short) 2484);                              // signature length
        b.put(JobSpecSamples.signature());                     // signature
        return b.flip();
    }

    private static SperliException refused(ErrorCode code, Executable e) {
        SperliException ex = assertThrows(SperliException.class, e);
        assertEquals(code, ex.code(), ex.getMessage());
        return ex;
    }

    private static void assertReadRefusedH1621(byte[] bytes) {
        refused(ErrorCode.H1621, () -> CommitFile.read(ByteBuffer.wrap(bytes)));
    }

    private static byte[] withU32(byte[] bytes, int offset, long value) {
        byte[] copy = bytes.clone();
        ByteBuffer.wrap(copy).order(ByteOrder.LITTLE_ENDIAN).putInt(offset, (int) value);
        return copy;
    }

    @Test
    void lengthIs2522Plus32TimesSize() {
        assertEquals(2522, CommitLayout.FIXED_LENGTH);
        for (int size : new int[] {1, 2, 3, 4096}) {
            assertEquals(2522 + 32 * size, CommitLayout.lengthFor(size));
            assertEquals("exactly " + (2522 + 32 * size), FrameType.CKPT_COMMIT.lengthRule(size).toString());
            assertEquals(2522 + 32 * size, sample(size).toBytes().length);
            assertEquals(2522 + 32 * size, sample(size).encodedLength());
        }
        assertEquals("SPERLI-COMMIT-1", CommitFile.CONTEXT);
    }

    /** The layout sits below the crypto package (protocol is the bottom of common), so its hash length is its own. */
    @Test
    void theLayoutsHashIsASha256() {
        assertEquals(Sha256.LENGTH, CommitLayout.HASH_LENGTH);
        assertEquals(CommitLayout.HASH_LENGTH, Sha256.of(new byte[0]).length);
        assertEquals(CommitLayout.HASHES_OFFSET + CommitLayout.HASH_LENGTH * 3,
                CommitLayout.signatureLengthOffset(3));
    }

    @Test
    void lengthForRefusesSizeOutside1To4096() {
        assertThrows(IllegalArgumentException.class, () -> CommitLayout.lengthFor(0));
        assertThrows(IllegalArgumentException.class, () -> CommitLayout.lengthFor(4097));
    }

    @Test
    void writesFieldByField() {
        assertArrayEquals(sampleBytes().array(), sample(2).toBytes());
    }

    @Test
    void readsFieldByField() {
        CommitFile c = CommitFile.read(sampleBytes());
        assertEquals(1, c.version());
        assertEquals(9, c.epoch());
        assertEquals(JOB, c.jobId());
        assertEquals(2, c.size());
        assertArrayEquals(hash(0), c.rankFileSha256(0));
        assertArrayEquals(hash(1), c.rankFileSha256().get(1));
        assertArrayEquals(JobSpecSamples.signature(), c.signature());
        assertEquals(sample(2), c);
    }

    @Test
    void signedPartIsTheFirst36Plus32TimesSizeBytes() {
        byte[] whole = sample(3).toBytes();
        assertArrayEquals(Arrays.copyOf(whole, 36 + 32 * 3), sample(3).signedPart());
        CommitFile unsigned = CommitFile.unsigned(9, JOB, hashes(3));
        assertArrayEquals(sample(3).signedPart(), unsigned.signedPart());
        assertThrows(IllegalStateException.class, unsigned::toBytes);
    }

    @Test
    void readsFromPositionToLimitWithoutMovingPosition() {
        byte[] commit = sample(2).toBytes();
        ByteBuffer b = ByteBuffer.allocate(commit.length + 8);
        b.position(4);
        b.put(commit);
        b.position(4).limit(4 + commit.length);
        assertEquals(sample(2), CommitFile.read(b));
        assertEquals(4, b.position());
    }

    @Test
    void refusesBadMagicWithH1621() {
        byte[] bytes = sample(1).toBytes();
        bytes[0] = 'X';
        assertReadRefusedH1621(bytes);
    }

    @Test
    void refusesVersionOtherThan1WithH1621() {
        assertReadRefusedH1621(withU32(sample(1).toBytes(), CommitLayout.VERSION_OFFSET, 2));
        assertReadRefusedH1621(withU32(sample(1).toBytes(), CommitLayout.VERSION_OFFSET, 0));
    }

    @Test
    void refusesSizeOutside1To4096WithH1621() {
        for (long size : new long[] {0, 4097, 0xffff_ffffL}) {
            assertReadRefusedH1621(withU32(sample(1).toBytes(), CommitLayout.SIZE_OFFSET, size));
        }
    }

    @Test
    void refusesLengthThatDoesNotFitTheSizeWithH1621() {
        assertReadRefusedH1621(withU32(sample(2).toBytes(), CommitLayout.SIZE_OFFSET, 1));
        assertReadRefusedH1621(withU32(sample(2).toBytes(), CommitLayout.SIZE_OFFSET, 3));
    }

    @Test
    void refusesSignatureLengthOtherThan2484WithH1621() {
        for (int length : new int[] {0, 2483, 2485, 0xffff}) {
            byte[] bytes = sample(2).toBytes();
            ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putShort(36 + 64, (short) length);
            assertReadRefusedH1621(bytes);
        }
    }

    @Test
    void refusesCutCommitAtEveryLengthWithH1621() {
        byte[] bytes = sample(1).toBytes();
        for (int n = 0; n < bytes.length; n++) {
            assertReadRefusedH1621(Arrays.copyOf(bytes, n));
        }
    }

    @Test
    void refusesTrailingByteWithH1621() {
        byte[] bytes = sample(2).toBytes();
        assertReadRefusedH1621(Arrays.copyOf(bytes, bytes.length + 1));
    }

    @Test
    void acceptsTheCommitOfTheJob() {
        sample(2).expect(JOB, 9, 2);
    }

    @Test
    void refusesCommitOfAnotherJobWithH1621() {
        refused(ErrorCode.H1621, () -> sample(2).expect(JobSpecSamples.OTHER_JOB, 9, 2));
    }

    @Test
    void refusesCommitOfAnotherEpochWithH1621() {
        refused(ErrorCode.H1621, () -> sample(2).expect(JOB, 8, 2));
    }

    @Test
    void refusesCommitOfAnotherSizeWithH1623() {
        refused(ErrorCode.H1623, () -> sample(2).expect(JOB, 9, 3));
    }

    @Test
    void refusesRankFileWhoseSha256IsNotTheListedOneWithH1620() {
        sample(2).expectRankFile(1, hash(1));
        refused(ErrorCode.H1620, () -> sample(2).expectRankFile(1, hash(0)));
    }

    @Test
    void refusesToWriteWhatReadRefuses() {
        byte[] sig = JobSpecSamples.signature();
        assertThrows(IllegalArgumentException.class, () -> CommitFile.unsigned(1, JOB, hashes(0)).signedPart());
        assertThrows(IllegalArgumentException.class,
                () -> CommitFile.unsigned(1, JOB, hashes(4097)).withSignature(sig).toBytes());
        assertThrows(IllegalArgumentException.class,
                () -> new CommitFile(1, 1, JOB, 3, hashes(2), sig).toBytes());
        assertThrows(IllegalArgumentException.class, () -> new CommitFile(2, 1, JOB, 2, hashes(2), sig).toBytes());
        assertThrows(IllegalArgumentException.class,
                () -> new CommitFile(1, 1L << 32, JOB, 2, hashes(2), sig).toBytes());
        assertThrows(IllegalArgumentException.class,
                () -> new CommitFile(1, 1, JOB, 1, List.of(new byte[31]), sig).toBytes());
        assertThrows(IllegalArgumentException.class,
                () -> new CommitFile(1, 1, JOB, 1, hashes(1), new byte[2483]).toBytes());
    }

    @Test
    void hashesAreCopiedInAndOut() {
        List<byte[]> hashes = hashes(2);
        CommitFile c = CommitFile.unsigned(1, JOB, hashes).withSignature(JobSpecSamples.signature());
        hashes.get(0)[0] = 0;
        c.rankFileSha256().get(1)[0] = 0;
        c.rankFileSha256(1)[1] = 0;
        assertArrayEquals(hash(0), c.rankFileSha256(0));
        assertArrayEquals(hash(1), c.rankFileSha256(1));
    }
}
