package org.sperli.protocol.payload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sperli.protocol.payload.Refusals.assertNotEncodable;
import static org.sperli.protocol.payload.Refusals.assertRefused;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sperli.ErrorCode;
import org.sperli.protocol.LeBytes;

class ResumeTest {
    static final int SIZE = 3;
    /** A COMMIT file of 3 ranks: 2522 + 96 bytes; its contents are not this codec's business. */
    static final int COMMIT = 2522 + 32 * SIZE;

    static byte[] commitBytes() {
        return LeBytes.le().fill(COMMIT, 0x5a).toBytes();
    }

    static byte[] offer() {
        return LeBytes.le()
                .u32(3)                  // status: offer
                .bytes(commitBytes())    // the COMMIT file
                .toBytes();
    }

    @Test
    void offsetsFollowTheTable() {
        assertEquals(0, Resume.STATUS_OFFSET);
        assertEquals(4, Resume.COMMIT_OFFSET);
        assertEquals(2618, Resume.commitLength(SIZE));
    }

    @Test
    void statusesFollowTheTable() {
        assertEquals(0, Resume.GO_ON);
        assertEquals(1, Resume.LOADED_FROM_BUDDY);
        assertEquals(2, Resume.CANNOT_LOAD);
        assertEquals(3, Resume.OFFER);
    }

    @Test
    void decodesStatusAlone() {
        Resume r = Resume.read(LeBytes.le().u32(2).buffer(), SIZE);
        assertEquals(2, r.status());
        assertNull(r.commit());
        assertFalse(r.hasCommit());
        assertEquals(Resume.of(Resume.CANNOT_LOAD), r);
    }

    @Test
    void decodesOfferWithCommitAsAReadOnlySlice() {
        byte[] b = offer();
        Resume r = Resume.read(ByteBuffer.wrap(b), SIZE);
        assertEquals(3, r.status());
        assertEquals(ByteBuffer.wrap(commitBytes()), r.commit());
        assertTrue(r.commit().isReadOnly());
        b[Resume.COMMIT_OFFSET] = 1;
        assertEquals(1, r.commit().get(0));
    }

    @Test
    void encodesTheSameBytes() {
        assertArrayEquals(offer(), new Resume(3, ByteBuffer.wrap(commitBytes())).toBytes());
        assertArrayEquals(LeBytes.le().u32(0).toBytes(), Resume.of(Resume.GO_ON).toBytes());
    }

    @Test
    void emptyCommitMeansNone() {
        assertNull(new Resume(0, ByteBuffer.allocate(0)).commit());
        assertEquals(Resume.of(0), new Resume(0, ByteBuffer.allocate(0)));
    }

    @Test
    void decodesFromTheMiddleOfADirectReadOnlyBufferWithoutMovingIt() {
        ByteBuffer b = LeBytes.embedded(offer());
        int position = b.position();
        assertEquals(new Resume(3, ByteBuffer.wrap(commitBytes())), Resume.read(b, SIZE));
        assertEquals(position, b.position());
    }

    @Test
    void refusesStatusAbove3() {
        assertRefused(ErrorCode.H1610, "status", () -> Resume.read(LeBytes.le().u32(4).buffer(), SIZE));
        assertRefused(ErrorCode.H1610, "status", () -> Resume.read(LeBytes.le().u32(0xffff_ffffL).buffer(), SIZE));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void refusesCommitWithStatusThatCarriesNone(int status) {
        ByteBuffer b = LeBytes.le().u32(status).bytes(commitBytes()).buffer();
        assertRefused(ErrorCode.H1610, "status", () -> Resume.read(b, SIZE));
    }

    @Test
    void refusesCommitOfAnotherJobSize() {
        assertRefused(ErrorCode.H1610, "length", () -> Resume.read(ByteBuffer.wrap(offer()), SIZE + 1));
        assertRefused(ErrorCode.H1610, "length", () -> Resume.read(ByteBuffer.wrap(offer()), SIZE - 1));
    }

    @Test
    void refusesCutInputAtEveryLengthButTheStatusAlone() {
        byte[] b = offer();
        for (int n = 0; n < b.length; n++) {
            int cut = n;
            if (n == Resume.FIXED_LENGTH) {
                // The status alone is a whole RESUME without a COMMIT.
                assertEquals(Resume.of(3), Resume.read(LeBytes.cut(b, n), SIZE));
            } else {
                assertRefused(ErrorCode.H1610, "length", () -> Resume.read(LeBytes.cut(b, cut), SIZE));
            }
        }
    }

    @Test
    void refusesTrailingByte() {
        assertRefused(ErrorCode.H1610, "length", () -> Resume.read(LeBytes.withTrailingByte(offer()), SIZE));
        byte[] status = Resume.of(0).toBytes();
        assertRefused(ErrorCode.H1610, "length", () -> Resume.read(LeBytes.withTrailingByte(status), SIZE));
    }

    @Test
    void refusesJobSizeOutsideV1AsACallerBug() {
        assertThrows(IllegalArgumentException.class, () -> Resume.read(ByteBuffer.wrap(offer()), 0));
        assertThrows(IllegalArgumentException.class, () -> Resume.read(ByteBuffer.wrap(offer()), 4097));
    }

    @Test
    void encoderRefusesWhatTheDecoderRefuses() {
        assertNotEncodable("status", () -> Resume.of(4).toBytes());
        assertNotEncodable("status", () -> new Resume(-1, null).toBytes());
        assertNotEncodable("status", () -> new Resume(1, ByteBuffer.wrap(commitBytes())).toBytes());
        assertNotEncodable("COMMIT length", () -> new Resume(3, ByteBuffer.allocate(COMMIT + 1)).toBytes());
        assertNotEncodable("COMMIT length", () -> new Resume(3, ByteBuffer.allocate(2522)).toBytes());
        assertNotEncodable("COMMIT length",
                () -> new Resume(3, ByteBuffer.allocate(2522 + 32 * 4097)).toBytes());
    }
}
