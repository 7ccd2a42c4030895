package org.sperli.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.sperli.runtime.CollectiveFixture.LIMIT;

import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sperli.ElementType;
import org.sperli.ReduceOp;
import org.sperli.protocol.frame.FrameType;
import org.sperli.transport.Frame;

/**
 * The COLLECTIVE frames a call puts on the wire, as the peer receives them: tag 0, header epoch 0, and the payload
 * [16-byte collective header][data], whether the data was copied behind the header or sent from the caller's array.
 */
class CollectiveWireTest {
    @Test
    void framesCarryTagZeroEpochZeroAndTheCollectiveHeaderThenTheData() {
        byte[] small = CollectiveFixture.bytes(1, 1, 12);
        byte[] large = CollectiveFixture.bytes(2, 1, CollectiveWire.COPY_AT_MOST + 4);
        List<TestJob.Outcome<String>> out = new TestJob(2).run(LIMIT, rt -> {
            if (rt.rank() == 1) {
                rt.reduce(0, small, ElementType.U32, ReduceOp.MAX);
                rt.gather(0, large);
                return "sent";
            }
            byte[] expectedSmall = ByteBuffer.allocate(16 + small.length)
                    .put(new byte[] {3, 2, 4, 0}) // reduce, u32, max, phase 0 toward the root
                    .put(new byte[] {0, 0, 0, 0}) // root 0, u32 LE
                    .put(new byte[] {1, 0, 0, 0, 0, 0, 0, 0}) // sequence 1, u64 LE
                    .put(small).array();
            byte[] expectedLarge = ByteBuffer.allocate(16 + large.length)
                    .put(new byte[] {5, 0, 0, 0}) // gather, type 0, op 0, phase 0
                    .put(new byte[] {0, 0, 0, 0}) // root 0
                    .put(new byte[] {2, 0, 0, 0, 0, 0, 0, 0}) // sequence 2
                    .put(large).array();
            for (byte[] expected : List.of(expectedSmall, expectedLarge)) {
                Frame frame = rt.frames().awaitCollective(1);
                try {
                    assertEquals(FrameType.COLLECTIVE, frame.header().frameType());
                    assertEquals(0, frame.header().tag(), "tag");
                    assertEquals(0, frame.header().epoch(), "header epoch");
                    assertEquals(expected.length, frame.header().length());
                    byte[] payload = new byte[frame.payload().readableBytes()];
                    frame.payload().getBytes(frame.payload().readerIndex(), payload);
                    assertArrayEquals(expected, payload);
                } finally {
                    frame.release();
                }
            }
            return "checked";
        });
        assertEquals("checked", out.get(0).get());
        assertEquals("sent", out.get(1).get());
    }
}
