package org.sperli.protocol.frame;

import org.sperli.protocol.JobId;
import org.sperli.protocol.LeBytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.sperli.protocol.payload.Heartbeat;

class FramesTest {
    static final JobId JOB = JobId.parseHex("00112233445566778899aabbccddeeff");

    @Test
    void encodesHeaderThenPayloadFromPosition0() {
        FrameHeader h = FrameHeader.of(FrameType.HEARTBEAT, 8, JOB, 1, 2, 1, 0, 0);
        ByteBuffer payload = ByteBuffer.wrap(new Heartbeat(3).toBytes());
        ByteBuffer frame = Frames.encode(h, payload);
        assertEquals(0, frame.position());
        assertEquals(60, frame.remaining());
        assertEquals(0, payload.position());
        byte[] expected = LeBytes.le().bytes(h.toBytes()).u64(3).toBytes();
        byte[] actual = new byte[60];
        frame.duplicate().get(actual);
        assertArrayEquals(expected, actual);
        assertEquals(h, FrameHeader.read(frame, 0));
        ReceiverContext ctx = new ReceiverContext(JOB, 3, 2, 1, 1);
        assertInstanceOf(HeaderVerdict.Accept.class, HeaderCheck.check(frame, 0, ctx));
    }

    @Test
    void encodesByeWithoutPayload() {
        FrameHeader h = FrameHeader.of(FrameType.BYE, 0, JOB, 1, 2, 1, 0, 0);
        assertEquals(52, Frames.encode(h, (ByteBuffer) null).remaining());
        assertEquals(52, Frames.encode(h, new byte[0]).remaining());
    }

    @Test
    void takesOnlyThePayloadsRemainingBytes() {
        FrameHeader h = FrameHeader.of(FrameType.DATA, 2, JOB, 1, 2, 1, 5, 0);
        ByteBuffer payload = ByteBuffer.wrap(new byte[] {9, 8, 7, 6}).position(1).limit(3);
        ByteBuffer frame = Frames.encode(h, payload);
        assertEquals(8, frame.get(52));
        assertEquals(7, frame.get(53));
        assertEquals(1, payload.position());
    }

    @Test
    void refusesHeaderLengthOtherThanPayload() {
        FrameHeader h = FrameHeader.of(FrameType.DATA, 3, JOB, 1, 2, 1, 0, 0);
        assertThrows(IllegalArgumentException.class, () -> Frames.encode(h, new byte[2]));
        assertThrows(IllegalArgumentException.class, () -> Frames.encode(h, (ByteBuffer) null));
    }

    @Test
    void refusesHeaderEveryReceiverRefuses() {
        FrameHeader h = FrameHeader.of(FrameType.HEARTBEAT, 9, JOB, 1, 2, 1, 0, 0);
        assertThrows(IllegalArgumentException.class, () -> Frames.encode(h, new byte[9]));
    }
}
