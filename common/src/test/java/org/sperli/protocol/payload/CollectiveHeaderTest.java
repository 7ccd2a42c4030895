package org.sperli.protocol.payload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sperli.protocol.payload.Refusals.assertNotEncodable;
import static org.sperli.protocol.payload.Refusals.assertRefused;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sperli.ErrorCode;
import org.sperli.protocol.LeBytes;

class CollectiveHeaderTest {
    static final CollectiveHeader ALLREDUCE = new CollectiveHeader(4, 5, 1, 0, 0, 6);

    static LeBytes header(int operation, int phase) {
        return LeBytes.le()
                .u8(operation)   // operation
                .u8(5)           // element type: f32
                .u8(1)           // reduce operation: sum
                .u8(phase)       // phase
                .u32(0)          // root
                .u64(6);         // sequence
    }

    static byte[] valid() {
        return header(4, 0).toBytes();
    }

    @Test
    void offsetsFollowTheTable() {
        assertEquals(0, CollectiveHeader.OPERATION_OFFSET);
        assertEquals(1, CollectiveHeader.ELEMENT_TYPE_OFFSET);
        assertEquals(2, CollectiveHeader.REDUCE_OP_OFFSET);
        assertEquals(3, CollectiveHeader.PHASE_OFFSET);
        assertEquals(4, CollectiveHeader.ROOT_OFFSET);
        assertEquals(8, CollectiveHeader.SEQUENCE_OFFSET);
        assertEquals(16, CollectiveHeader.LENGTH);
    }

    @Test
    void constantsFollowTheTable() {
        assertEquals(1, CollectiveHeader.BARRIER);
        assertEquals(2, CollectiveHeader.BCAST);
        assertEquals(3, CollectiveHeader.REDUCE);
        assertEquals(4, CollectiveHeader.ALLREDUCE);
        assertEquals(5, CollectiveHeader.GATHER);
        assertEquals(6, CollectiveHeader.SCATTER);
        assertEquals(0, CollectiveHeader.TOWARD_ROOT);
        assertEquals(1, CollectiveHeader.FROM_ROOT);
    }

    @Test
    void decodesFieldByField() {
        assertEquals(ALLREDUCE, CollectiveHeader.read(ByteBuffer.wrap(valid())));
    }

    @Test
    void encodesTheSameBytes() {
        assertArrayEquals(valid(), ALLREDUCE.toBytes());
    }

    @Test
    void roundTripsUnsignedRootAndSequence() {
        CollectiveHeader h = new CollectiveHeader(6, 0, 0, 1, 0xffff_ffffL, -1L);
        assertEquals(h, CollectiveHeader.read(ByteBuffer.wrap(h.toBytes())));
    }

    @Test
    void readsTheFirst16BytesAndLeavesTheData() {
        byte[] frame = header(4, 1).bytes(new byte[] {1, 2, 3}).toBytes();
        ByteBuffer b = LeBytes.embedded(frame);
        int position = b.position();
        assertEquals(1, CollectiveHeader.read(b).phase());
        assertEquals(ByteBuffer.wrap(new byte[] {1, 2, 3}), CollectiveHeader.data(b));
        assertTrue(CollectiveHeader.data(b).isReadOnly());
        assertEquals(position, b.position());
    }

    @Test
    void leavesElementTypeAndReduceOperationToTheCall() {
        // Out-of-range type and operation decode; the comparison with the call refuses them.
        CollectiveHeader h = CollectiveHeader.read(LeBytes.le().u8(3).u8(255).u8(255).u8(0).u32(0).u64(1).buffer());
        assertEquals(255, h.elementType());
        assertEquals("element type=255, expected 5",
                h.mismatch(new CollectiveHeader(3, 5, 1, 0, 0, 1)));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 7, 255})
    void refusesOperationOutside1To6(int operation) {
        assertRefused(ErrorCode.H1617, "operation", () -> CollectiveHeader.read(header(operation, 0).buffer()));
    }

    @ParameterizedTest
    @ValueSource(ints = {8, 255})
    void refusesPhaseAbove7(int phase) {
        assertRefused(ErrorCode.H1617, "phase", () -> CollectiveHeader.read(header(1, phase).buffer()));
    }

    @Test
    void refusesCutInputAtEveryLength() {
        for (int n = 0; n < CollectiveHeader.LENGTH; n++) {
            int cut = n;
            assertRefused(ErrorCode.H1617, "length", () -> CollectiveHeader.read(LeBytes.cut(valid(), cut)));
            assertRefused(ErrorCode.H1617, "length", () -> CollectiveHeader.data(LeBytes.cut(valid(), cut)));
        }
    }

    @Test
    void acceptsTrailingDataWhichIsThePayload() {
        assertEquals(ALLREDUCE, CollectiveHeader.read(LeBytes.withTrailingByte(valid())));
    }

    @Test
    void mismatchIsNullForTheSameHeader() {
        assertNull(ALLREDUCE.mismatch(new CollectiveHeader(4, 5, 1, 0, 0, 6)));
    }

    @Test
    void mismatchNamesTheFirstDifferingFieldInTableOrder() {
        assertEquals("operation=3, expected 4", new CollectiveHeader(3, 0, 0, 1, 1, 7).mismatch(ALLREDUCE));
        assertEquals("element type=6, expected 5", new CollectiveHeader(4, 6, 0, 1, 1, 7).mismatch(ALLREDUCE));
        assertEquals("reduce operation=2, expected 1",
                new CollectiveHeader(4, 5, 2, 1, 1, 7).mismatch(ALLREDUCE));
        assertEquals("phase=1, expected 0", new CollectiveHeader(4, 5, 1, 1, 1, 7).mismatch(ALLREDUCE));
        assertEquals("root=1, expected 0", new CollectiveHeader(4, 5, 1, 0, 1, 7).mismatch(ALLREDUCE));
        assertEquals("sequence=7, expected 6", new CollectiveHeader(4, 5, 1, 0, 0, 7).mismatch(ALLREDUCE));
        assertEquals("sequence=18446744073709551615, expected 6",
                new CollectiveHeader(4, 5, 1, 0, 0, -1L).mismatch(ALLREDUCE));
    }

    /** The mesh's phases (feature bit 1) are read; whether one answers a call is the mismatch's to judge. */
    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4, 5, 6, 7})
    void readsTheMeshPhases2To7(int phase) {
        assertEquals(phase, CollectiveHeader.read(header(1, phase).buffer()).phase());
    }

    @Test
    void encoderRefusesWhatTheDecoderRefuses() {
        assertNotEncodable("operation", () -> new CollectiveHeader(0, 0, 0, 0, 0, 1).toBytes());
        assertNotEncodable("operation", () -> new CollectiveHeader(7, 0, 0, 0, 0, 1).toBytes());
        assertNotEncodable("phase", () -> new CollectiveHeader(1, 0, 0, 8, 0, 1).toBytes());
        assertNotEncodable("phase", () -> new CollectiveHeader(1, 0, 0, -1, 0, 1).toBytes());
        assertNotEncodable("element type", () -> new CollectiveHeader(3, 256, 1, 0, 0, 1).toBytes());
        assertNotEncodable("reduce operation", () -> new CollectiveHeader(3, 1, -1, 0, 0, 1).toBytes());
        assertNotEncodable("root", () -> new CollectiveHeader(2, 0, 0, 1, 1L << 32, 1).toBytes());
    }
}
