package org.sperli.protocol.frame;

import org.sperli.protocol.JobId;
import org.sperli.protocol.LeBytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

class FrameHeaderTest {
    static final JobId JOB = JobId.parseHex("00112233445566778899aabbccddeeff");

    @Test
    void headerIs52Bytes() {
        assertEquals(52, FrameHeader.LENGTH);
    }

    @Test
    void offsetsFollowTheTable() {
        assertEquals(0, FrameHeader.LENGTH_OFFSET);
        assertEquals(4, FrameHeader.TYPE_OFFSET);
        assertEquals(5, FrameHeader.FLAGS_OFFSET);
        assertEquals(6, FrameHeader.SERVICE_OFFSET);
        assertEquals(8, FrameHeader.MEMBERSHIP_EPOCH_OFFSET);
        assertEquals(16, FrameHeader.JOB_ID_OFFSET);
        assertEquals(32, FrameHeader.SOURCE_RANK_OFFSET);
        assertEquals(36, FrameHeader.TARGET_RANK_OFFSET);
        assertEquals(40, FrameHeader.INCARNATION_OFFSET);
        assertEquals(44, FrameHeader.TAG_OFFSET);
        assertEquals(48, FrameHeader.EPOCH_OFFSET);
    }

    static byte[] dataHeaderBytes() {
        return LeBytes.le()
                .u32(5)                      // length: 5 payload bytes
                .u8(2)                       // type: DATA
                .u8(0)                       // flags: 0 in v1
                .u16(0)                      // service: 0 in v1
                .u64(0)                      // membership epoch: 0 in v1
                .bytes(JOB.toBytes())        // job id
                .u32(3)                      // source rank
                .u32(1)                      // target rank
                .u32(2)                      // incarnation
                .u32(0x7fff_ffffL)           // tag: the largest user tag
                .u32(0)                      // epoch: 0 outside checkpoint frames
                .toBytes();
    }

    @Test
    void headerBuiltFieldByFieldDecodes() {
        FrameHeader h = FrameHeader.read(ByteBuffer.wrap(dataHeaderBytes()), 0);
        assertEquals(new FrameHeader(5, 2, 0, 0, 0, JOB, 3, 1, 2, 0x7fff_ffffL, 0), h);
        assertEquals(FrameType.DATA, h.frameType());
    }

    @Test
    void encodesTheSameBytes() {
        FrameHeader h = FrameHeader.of(FrameType.DATA, 5, JOB, 3, 1, 2, 0x7fff_ffffL, 0);
        assertArrayEquals(dataHeaderBytes(), h.toBytes());
    }

    @Test
    void readsUnsignedFieldsAboveTwoToThe31() {
        byte[] b = dataHeaderBytes();
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN)
                .putInt(FrameHeader.INCARNATION_OFFSET, -1).putInt(FrameHeader.TAG_OFFSET, 0x8000_0000);
        FrameHeader h = FrameHeader.read(ByteBuffer.wrap(b), 0);
        assertEquals(0xffff_ffffL, h.incarnation());
        assertEquals(0x8000_0000L, h.tag());
    }

    @Test
    void readsAtAnOffsetWithoutMovingThePosition() {
        byte[] b = LeBytes.le().fill(9, 0xee).bytes(dataHeaderBytes()).toBytes();
        ByteBuffer buf = ByteBuffer.wrap(b).position(3);
        FrameHeader h = FrameHeader.read(buf, 9);
        assertEquals(3, h.sourceRank());
        assertEquals(3, buf.position());
    }

    @Test
    void refusesToReadFewerThan52Bytes() {
        assertThrows(IllegalArgumentException.class, () -> FrameHeader.read(ByteBuffer.allocate(51), 0));
    }

    @Test
    void refusesToWriteReservedTagOnData() {
        FrameHeader h = FrameHeader.of(FrameType.DATA, 0, JOB, 0, 1, 1, 0x8000_0000L, 0);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, h::toBytes);
        assertTrue(e.getMessage().contains("tag=2147483648"), e.getMessage());
    }

    @Test
    void refusesToWriteLengthThatDoesNotFitType() {
        FrameHeader h = FrameHeader.of(FrameType.HEARTBEAT, 9, JOB, 0, 1, 1, 0, 0);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, h::toBytes);
        assertTrue(e.getMessage().contains("length=9"), e.getMessage());
    }

    @Test
    void writesRefusedHeadersOnlyWhenAskedUnchecked() {
        FrameHeader h = new FrameHeader(0, 12, 0, 0, 0, JOB, 0, 1, 1, 0, 0);
        byte[] b = new byte[FrameHeader.LENGTH];
        h.writeUnchecked(ByteBuffer.wrap(b), 0);
        assertEquals(12, b[FrameHeader.TYPE_OFFSET]);
        assertThrows(IllegalArgumentException.class, h::toBytes);
    }
}
