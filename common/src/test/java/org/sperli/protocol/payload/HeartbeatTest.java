package org.sperli.protocol.payload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.sperli.protocol.payload.Refusals.assertRefused;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.sperli.ErrorCode;
import org.sperli.protocol.LeBytes;

class HeartbeatTest {
    static byte[] valid() {
        return LeBytes.le()
                .u64(0x0102_0304_0506_0708L)   // counter
                .toBytes();
    }

    @Test
    void isEightBytes() {
        assertEquals(0, Heartbeat.COUNTER_OFFSET);
        assertEquals(8, Heartbeat.LENGTH);
    }

    @Test
    void decodesFieldByField() {
        assertEquals(new Heartbeat(0x0102_0304_0506_0708L), Heartbeat.read(ByteBuffer.wrap(valid())));
    }

    @Test
    void encodesTheSameBytes() {
        assertArrayEquals(valid(), new Heartbeat(0x0102_0304_0506_0708L).toBytes());
    }

    @Test
    void roundTripsUnsignedCounterAbove2To63() {
        Heartbeat h = new Heartbeat(-1L);
        assertEquals(h, Heartbeat.read(ByteBuffer.wrap(h.toBytes())));
        assertEquals(h, Heartbeat.read(LeBytes.embedded(h.toBytes())));
    }

    @Test
    void refusesCutInputAtEveryLength() {
        for (int n = 0; n < 8; n++) {
            int cut = n;
            assertRefused(ErrorCode.H1610, "length", () -> Heartbeat.read(LeBytes.cut(valid(), cut)));
        }
    }

    @Test
    void refusesTrailingByte() {
        assertRefused(ErrorCode.H1610, "length", () -> Heartbeat.read(LeBytes.withTrailingByte(valid())));
    }
}
