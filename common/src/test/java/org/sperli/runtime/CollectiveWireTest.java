package org.sperli.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.sperli.ElementType;
import org.sperli.ReduceOp;
import org.sperli.identity.TlsSockets;
import org.sperli.protocol.frame.FrameType;

/**
 * The COLLECTIVE frames a call puts on the wire, as the peer receives them: tag 0, header epoch 0, and the payload
 * [16-byte collective header][data], whether the data was copied behind the header or sent from the caller's array.
 * Rank 1 is real; rank 0 is a hand-driven peer that reads the frames off its TLS connection.
 */
class CollectiveWireTest {
    @Test
    void framesCarryTagZeroEpochZeroAndTheCollectiveHeaderThenTheData() throws Exception {
        byte[] small = CollectiveFixture.bytes(1, 1, 12);
        byte[] large = CollectiveFixture.bytes(2, 1, CollectiveWire.COPY_AT_MOST + 4);
        TestJob job = new TestJob(2);
        RankConfig config = job.config(1);
        CompletableFuture<String> rank1 = CompletableFuture.supplyAsync(() -> {
            try (RankRuntime rt = RankRuntime.connect(config)) {
                rt.reduce(0, small, ElementType.U32, ReduceOp.MAX);
                rt.gather(0, large);
                return "sent";
            }
        });
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
        try (RoguePeer zero = RoguePeer.tls(TlsSockets.context(job.job, job.size, job.ca.certificate(),
                job.credentials.get(0)), job.hosts.get(1).port())) {
            zero.sendHello(job, 0, 1, job.token(0));
            assertNotNull(zero.readUntil(FrameType.HELLO));
            for (byte[] expected : List.of(expectedSmall, expectedLarge)) {
                RoguePeer.Read frame = zero.readWhole(FrameType.COLLECTIVE);
                assertNotNull(frame, "rank 1 sent no further COLLECTIVE frame");
                assertEquals(0, frame.header().tag(), "tag");
                assertEquals(0, frame.header().epoch(), "header epoch");
                assertEquals(expected.length, frame.header().length());
                assertArrayEquals(expected, frame.payload());
            }
            assertNotNull(zero.readUntil(FrameType.BYE), "rank 1 left normally");
        }
        assertEquals("sent", rank1.get(30, TimeUnit.SECONDS));
    }
}
