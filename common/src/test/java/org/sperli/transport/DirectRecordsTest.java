package org.sperli.transport;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.sperli.identity.TestJob;
import org.sperli.protocol.frame.FrameHeader;
import org.sperli.protocol.frame.FrameType;

/**
 * When a frame may go out beside the pipeline ({@link DirectRecords#keepsOrder}): on a connection whose TLS handshake
 * is done (two embedded channels, the job's certificates) with nothing of it still in the pipeline or the outbound
 * buffer, a small frame may; anything that could put its record or its frame out of order may not.
 */
class DirectRecordsTest {
    private TestJob job;
    private EmbeddedChannel client;
    private EmbeddedChannel server;
    private DirectRecords direct;

    @BeforeEach
    void handshake() {
        job = TestJob.create(List.of("node0.example", "node1.example"));
        client = EmbeddedEnds.end(job, true, new IgnoredPeerEvents());
        server = EmbeddedEnds.end(job, false, new IgnoredPeerEvents());
        EmbeddedEnds.handshake(client, server);
        direct = new DirectRecords(client);
    }

    @AfterEach
    void close() {
        client.finishAndReleaseAll();
        server.finishAndReleaseAll();
    }

    @Test
    void aSmallFrameMayGoDirectlyOnceTheHandshakeIsDoneAndNothingIsQueued() {
        assertTrue(direct.keepsOrder(frame(FrameType.DATA, FrameEncoder.ONE_BUFFER_PAYLOAD_BYTES)));
        assertTrue(direct.keepsOrder(frame(FrameType.COLLECTIVE, 8)));
    }

    @Test
    void aFrameLargerThanOneRecordTakesThePipeline() {
        assertFalse(direct.keepsOrder(frame(FrameType.DATA, FrameEncoder.ONE_BUFFER_PAYLOAD_BYTES + 1)));
    }

    @Test
    void helloTakesThePipeline() {
        // HELLO is written as the handshake ends, while TLS may still have its own last flight to send.
        assertFalse(direct.keepsOrder(frame(FrameType.HELLO, 8)));
    }

    @Test
    void nothingGoesDirectlyWhileAFrameWrittenThroughThePipelineIsOnItsWay() {
        direct.enteredPipeline();
        assertFalse(direct.keepsOrder(frame(FrameType.DATA, 8)), "a large frame may still be going out in pieces");
        direct.leftPipeline();
        assertTrue(direct.keepsOrder(frame(FrameType.DATA, 8)));
    }

    @Test
    void nothingGoesDirectlyWhileTheOutboundBufferHoldsBytes() {
        // Written, not yet flushed: bytes in Netty's outbound buffer would reach the socket after a direct record.
        client.pipeline().context(io.netty.handler.ssl.SslHandler.class).write(Unpooled.wrappedBuffer(new byte[40]));
        assertFalse(direct.keepsOrder(frame(FrameType.DATA, 8)));
        client.flush();
        EmbeddedEnds.drain(client).release();
        assertTrue(direct.keepsOrder(frame(FrameType.DATA, 8)));
    }

    @Test
    void nothingGoesDirectlyOnceTlsIsClosing() {
        client.close();
        assertFalse(direct.keepsOrder(frame(FrameType.DATA, 8)));
    }

    @Test
    void nothingGoesDirectlyBeforeTheHandshakeIsDone() {
        EmbeddedChannel fresh = EmbeddedEnds.end(job, true, new IgnoredPeerEvents());
        try {
            assertFalse(new DirectRecords(fresh).keepsOrder(frame(FrameType.DATA, 8)));
        } finally {
            fresh.finishAndReleaseAll();
        }
    }

    @Test
    void aChannelThatIsNotASocketIsNeverWrittenDirectly() {
        OutboundFrame f = frame(FrameType.DATA, 8);
        assertNull(direct.send(f), "an embedded channel has no socket: the pipeline writes the frame");
        assertTrue(f.payload().refCnt() > 0, "and the frame is left untouched for it");
        f.payload().release();
    }

    private OutboundFrame frame(FrameType type, int bytes) {
        FrameHeader h = FrameHeader.of(type, bytes, job.job, 0, 1, 1, 0, 0);
        return new OutboundFrame(h, Unpooled.buffer(bytes).writeZero(bytes));
    }
}
