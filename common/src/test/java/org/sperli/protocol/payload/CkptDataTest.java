package org.sperli.protocol.payload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sperli.protocol.payload.Refusals.assertNotEncodable;
import static org.sperli.protocol.payload.Refusals.assertRefused;

import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sperli.ErrorCode;
import org.sperli.protocol.LeBytes;
import org.sperli.protocol.Limits;

class CkptDataTest {
    static final byte[] CHUNK = {10, 11, 12, 13, 14, 15, 16, 17, 18, 19};

    static LeBytes fixed(int kind, int zero1, long fileRank, long offset, long total) {
        return LeBytes.le()
                .u8(kind)        // kind
                .u8(zero1)       // zero byte 1
                .u16(0)          // zero bytes 2..3
                .u32(fileRank)   // file rank
                .u64(offset)     // offset: bytes of the file already sent
                .u64(total);     // total: the file's whole length
    }

    static byte[] valid() {
        return fixed(0, 0, 5, 100, 110).bytes(CHUNK).toBytes();
    }

    static ByteBuffer chunkOf(int n) {
        return ByteBuffer.allocate(n);
    }

    @Test
    void offsetsFollowTheTable() {
        assertEquals(0, CkptData.KIND_OFFSET);
        assertEquals(1, CkptData.ZERO_OFFSET);
        assertEquals(4, CkptData.FILE_RANK_OFFSET);
        assertEquals(8, CkptData.FILE_OFFSET_OFFSET);
        assertEquals(16, CkptData.TOTAL_OFFSET);
        assertEquals(24, CkptData.CHUNK_OFFSET);
        assertEquals(24 + 1048576, CkptData.MAX_LENGTH);
    }

    @Test
    void kindsFollowTheTable() {
        assertEquals(0, CkptData.KIND_BUDDY_CHUNK);
        assertEquals(1, CkptData.KIND_REQUEST);
        assertEquals(2, CkptData.KIND_ANSWER_CHUNK);
        assertEquals(3, CkptData.KIND_NO_COPY);
        assertEquals(4, CkptData.KIND_NEEDS_NOTHING);
    }

    @Test
    void decodesFieldByField() {
        CkptData d = CkptData.read(ByteBuffer.wrap(valid()));
        assertEquals(0, d.kind());
        assertEquals(5, d.fileRank());
        assertEquals(100, d.offset());
        assertEquals(110, d.total());
        assertEquals(ByteBuffer.wrap(CHUNK), d.chunk());
        assertEquals(new CkptData(0, 5, 100, 110, ByteBuffer.wrap(CHUNK)), d);
    }

    @Test
    void encodesTheSameBytes() {
        assertArrayEquals(valid(), new CkptData(0, 5, 100, 110, ByteBuffer.wrap(CHUNK)).toBytes());
    }

    @Test
    void factoriesEncodeKindsWithoutChunk() {
        assertArrayEquals(fixed(1, 0, 3, 0, 0).toBytes(), CkptData.request(3).toBytes());
        assertArrayEquals(fixed(3, 0, 3, 0, 0).toBytes(), CkptData.noCopy(3).toBytes());
        assertArrayEquals(fixed(4, 0, 3, 0, 0).toBytes(), CkptData.needsNothing(3).toBytes());
        assertEquals(CkptData.request(4095), CkptData.read(ByteBuffer.wrap(CkptData.request(4095).toBytes())));
    }

    @Test
    void chunkIsAReadOnlySliceOfTheInputNotACopy() {
        byte[] b = valid();
        CkptData d = CkptData.read(ByteBuffer.wrap(b));
        b[CkptData.CHUNK_OFFSET] = 99;
        assertEquals(99, d.chunk().get(0));
        assertTrue(d.chunk().isReadOnly());
        assertThrows(ReadOnlyBufferException.class, () -> d.chunk().put(0, (byte) 1));
    }

    @Test
    void chunkViewsMoveIndependentlyOfTheRecord() {
        CkptData d = CkptData.read(ByteBuffer.wrap(valid()));
        ByteBuffer view = d.chunk();
        view.position(view.limit());
        assertEquals(10, d.chunkLength());
        assertEquals(10, d.chunk().remaining());
        assertEquals(new CkptData(0, 5, 100, 110, ByteBuffer.wrap(CHUNK)), d);
    }

    @Test
    void equalityComparesChunkContents() {
        CkptData a = new CkptData(2, 1, 0, 10, ByteBuffer.wrap(CHUNK));
        CkptData b = new CkptData(2, 1, 0, 10, ByteBuffer.wrap(CHUNK.clone()));
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        byte[] other = CHUNK.clone();
        other[9] = 0;
        assertNotEquals(a, new CkptData(2, 1, 0, 10, ByteBuffer.wrap(other)));
    }

    @Test
    void decodesFromTheMiddleOfADirectReadOnlyBufferWithoutMovingIt() {
        ByteBuffer b = LeBytes.embedded(valid());
        int position = b.position();
        assertEquals(CkptData.read(ByteBuffer.wrap(valid())), CkptData.read(b));
        assertEquals(position, b.position());
    }

    @Test
    void acceptsChunkOf1MiBAndEmptyChunk() {
        CkptData full = new CkptData(0, 0, 0, Limits.MAX_CHUNK, chunkOf(Limits.MAX_CHUNK));
        assertEquals(full, CkptData.read(ByteBuffer.wrap(full.toBytes())));
        CkptData empty = new CkptData(2, 0, 0, 0, null);
        assertEquals(empty, CkptData.read(ByteBuffer.wrap(empty.toBytes())));
    }

    @Test
    void treatsOffsetAndTotalAsUnsigned() {
        CkptData d = new CkptData(0, 0, 0, Long.MIN_VALUE, ByteBuffer.wrap(CHUNK));
        assertEquals(d, CkptData.read(ByteBuffer.wrap(d.toBytes())));
        CkptData e = new CkptData(0, 0, Long.MIN_VALUE, -1L, ByteBuffer.wrap(CHUNK));
        assertEquals(e, CkptData.read(ByteBuffer.wrap(e.toBytes())));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void refusesNonzeroZeroByte(int at) {
        byte[] b = valid();
        b[at] = 1;
        assertRefused(ErrorCode.H1610, "zero bytes 1..3", () -> CkptData.read(ByteBuffer.wrap(b)));
    }

    @ParameterizedTest
    @ValueSource(ints = {5, 255})
    void refusesKindAbove4(int kind) {
        assertRefused(ErrorCode.H1610, "kind", () -> CkptData.read(fixed(kind, 0, 0, 0, 0).buffer()));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3, 4})
    void refusesChunkOnKindsWithoutOne(int kind) {
        assertRefused(ErrorCode.H1610, "chunk length",
                () -> CkptData.read(fixed(kind, 0, 0, 0, 1).bytes(new byte[1]).buffer()));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3, 4})
    void refusesOffsetOrTotalOnKindsWithoutChunk(int kind) {
        assertRefused(ErrorCode.H1610, "offset", () -> CkptData.read(fixed(kind, 0, 0, 1, 1).buffer()));
        assertRefused(ErrorCode.H1610, "offset", () -> CkptData.read(fixed(kind, 0, 0, 0, 1).buffer()));
    }

    @Test
    void refusesChunkAbove1MiB() {
        ByteBuffer b = fixed(0, 0, 0, 0, 1L << 40).bytes(new byte[Limits.MAX_CHUNK + 1]).buffer();
        assertRefused(ErrorCode.H1610, "chunk length", () -> CkptData.read(b));
    }

    @Test
    void refusesChunkBeyondTotal() {
        assertRefused(ErrorCode.H1610, "offset", () -> CkptData.read(fixed(0, 0, 0, 101, 110).bytes(CHUNK).buffer()));
        assertRefused(ErrorCode.H1610, "offset", () -> CkptData.read(fixed(2, 0, 0, 0, 9).bytes(CHUNK).buffer()));
        assertRefused(ErrorCode.H1610, "offset", () -> CkptData.read(fixed(0, 0, 0, 111, 110).buffer()));
    }

    @Test
    void refusesChunkBeyondTotalWhenOffsetPlusChunkWouldWrap() {
        // 2^64 - 5 + 10 wraps to 5, which a naive sum would let pass against any total.
        ByteBuffer b = fixed(0, 0, 0, -5L, -1L).bytes(CHUNK).buffer();
        assertRefused(ErrorCode.H1610, "offset", () -> CkptData.read(b));
    }

    @Test
    void refusesCutFixedPartAtEveryLength() {
        byte[] b = valid();
        for (int n = 0; n < CkptData.FIXED_LENGTH; n++) {
            int cut = n;
            assertRefused(ErrorCode.H1610, "length", () -> CkptData.read(LeBytes.cut(b, cut)));
        }
    }

    @Test
    void cutChunkIsAShorterChunkBecauseTheFrameLengthIsItsOnlyLength() {
        byte[] b = valid();
        for (int n = CkptData.FIXED_LENGTH; n < b.length; n++) {
            assertEquals(n - CkptData.FIXED_LENGTH, CkptData.read(LeBytes.cut(b, n)).chunkLength());
        }
    }

    @Test
    void refusesTrailingByte() {
        // The chunk ends at its total here, so one more byte is past it.
        assertRefused(ErrorCode.H1610, "offset", () -> CkptData.read(LeBytes.withTrailingByte(valid())));
        byte[] request = CkptData.request(1).toBytes();
        assertRefused(ErrorCode.H1610, "chunk length", () -> CkptData.read(LeBytes.withTrailingByte(request)));
    }

    @Test
    void encoderRefusesWhatTheDecoderRefuses() {
        assertNotEncodable("kind", () -> new CkptData(5, 0, 0, 0, null).toBytes());
        assertNotEncodable("kind", () -> new CkptData(-1, 0, 0, 0, null).toBytes());
        assertNotEncodable("file rank", () -> new CkptData(1, 1L << 32, 0, 0, null).toBytes());
        assertNotEncodable("chunk length", () -> new CkptData(1, 0, 0, 1, chunkOf(1)).toBytes());
        assertNotEncodable("offset", () -> new CkptData(4, 0, 0, 1, null).toBytes());
        assertNotEncodable("chunk length",
                () -> new CkptData(0, 0, 0, 1L << 40, chunkOf(Limits.MAX_CHUNK + 1)).toBytes());
        assertNotEncodable("offset", () -> new CkptData(0, 0, 5, 10, chunkOf(6)).toBytes());
    }

    @Test
    void writeTakesNothingFromTheCallersChunkPosition() {
        ByteBuffer chunk = ByteBuffer.wrap(CHUNK);
        CkptData d = new CkptData(0, 5, 100, 110, chunk);
        ByteBuffer out = ByteBuffer.allocate(100);
        d.write(out);
        d.write(out);
        assertEquals(0, chunk.position());
        assertEquals(2 * valid().length, out.position());
    }
}
