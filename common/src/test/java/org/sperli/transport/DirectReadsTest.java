package org.sperli.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.ssl.SslHandler;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.sperli.identity.TestJob;
import org.sperli.protocol.frame.FrameHeader;
import org.sperli.protocol.frame.FrameType;

/**
 * When a read's records are decrypted beside the TLS handler ({@link DirectReads#take}): on a connection whose
 * handshake is done (two embedded channels, the job's certificates), whole small records are, and their frames reach
 * the runtime as they would through the handler; anything the handler must see whole (a record cut by the read, a
 * large record, bytes it already holds, a paused connection) is left to it, and a record that does not decrypt fails
 * the read.
 */
class DirectReadsTest {
    private TestJob job;
    private EmbeddedChannel client;
    private EmbeddedChannel server;
    private DirectReads reads;
    private final List<byte[]> arrived = new ArrayList<>();

    @BeforeEach
    void handshake() {
        job = TestJob.create(List.of("node0.example", "node1.example"));
        client = EmbeddedEnds.end(job, true, new IgnoredPeerEvents());
        server = EmbeddedEnds.end(job, false, new IgnoredPeerEvents() {
            @Override
            public void onFrame(int peer, Frame frame) {
                arrived.add(ByteBufUtil.getBytes(frame.payload()));
                frame.release();
            }
        });
        EmbeddedEnds.handshake(client, server);
        // The gate wants a HELLO first; what is read here is the frames behind it.
        server.pipeline().remove(HelloGate.class);
        reads = new DirectReads(server);
    }

    @AfterEach
    void close() {
        client.finishAndReleaseAll();
        server.finishAndReleaseAll();
    }

    @Test
    void wholeSmallRecordsAreTakenAndTheirFramesArriveInOrder() throws SSLException {
        ByteBuf in = records(small(1), small(2), small(3));
        int read = in.readableBytes();
        assertEquals(0, reads.take(in, read), "nothing is left for the TLS handler");
        assertFalse(in.isReadable());
        in.release();
        assertArrived(1, 2, 3);
    }

    @Test
    void aRecordCutByTheReadIsLeftToTheTlsHandlerAndTheNextReadIsTakenAgain() throws SSLException {
        ByteBuf all = records(small(1), small(2));
        int first = recordLength(all, 0);
        ByteBuf in = all.readRetainedSlice(first + 10);
        int read = in.readableBytes();
        assertEquals(read, reads.take(in, read), "the cut record's bytes go on to the pipeline");
        assertEquals(10, in.readableBytes());
        assertArrived(1);
        server.writeInbound(in);
        assertFalse(reads.ready(), "the TLS handler holds the start of a record: everything goes to it");
        server.writeInbound(all);
        assertArrived(1, 2);
        assertTrue(reads.ready());
        ByteBuf next = records(small(3));
        assertEquals(0, reads.take(next, next.readableBytes()));
        next.release();
        assertArrived(1, 2, 3);
    }

    @Test
    void aLargeRecordAndWhatFollowsItAreLeftToTheTlsHandler() throws SSLException {
        ByteBuf in = records(small(1), frame(FrameType.DATA, 2, DirectReads.SMALL_RECORD_BYTES), small(3));
        int read = in.readableBytes();
        int first = recordLength(in, 0);
        assertEquals(read, reads.take(in, read));
        assertEquals(read - first, in.readableBytes(), "only the small record before it was taken");
        assertArrived(1);
        server.writeInbound(in);
        assertEquals(3, arrived.size());
        assertEquals(DirectReads.SMALL_RECORD_BYTES, arrived.get(1).length);
    }

    @Test
    void aPausedConnectionIsReadTheTlsHandlersWay() throws SSLException {
        server.config().setAutoRead(false);
        ByteBuf in = records(small(1));
        int read = in.readableBytes();
        assertEquals(read, reads.take(in, read));
        assertEquals(read, in.readableBytes(), "untouched");
        in.release();
        assertTrue(arrived.isEmpty());
    }

    @Test
    void nothingIsTakenBeforeTheHandshakeIsDone() throws SSLException {
        EmbeddedChannel fresh = EmbeddedEnds.end(job, true, new IgnoredPeerEvents());
        try {
            ByteBuf in = Unpooled.wrappedBuffer(new byte[] {DirectReads.APPLICATION_DATA, 3, 3, 0, 1, 0});
            assertEquals(6, new DirectReads(fresh).take(in, 6));
            assertEquals(6, in.readableBytes());
            in.release();
        } finally {
            fresh.finishAndReleaseAll();
        }
    }

    @Test
    void aRecordThatDoesNotDecryptFailsTheReadAfterTheAuthenticRecordsBeforeIt() {
        ByteBuf in = records(small(1), small(2), small(3));
        int second = recordLength(in, 0);
        in.setByte(second + DirectReads.HEADER_BYTES + 4, in.getByte(second + DirectReads.HEADER_BYTES + 4) ^ 1);
        int read = in.readableBytes();
        assertThrows(SSLException.class, () -> reads.take(in, read));
        assertFalse(in.isReadable(), "nothing after the bad record is read");
        in.release();
        assertArrived(1);
        ByteBuf alert = EmbeddedEnds.drain(server);
        assertTrue(alert.isReadable(), "the engine's alert went out through the TLS handler");
        alert.release();
    }

    @Test
    void thePeersCloseNotifyCompletesTheTlsHandlersCloseFuture() throws SSLException {
        client.close();
        ByteBuf in = EmbeddedEnds.drain(client);
        int read = in.readableBytes();
        assertTrue(read > 0, "the client sent its close_notify");
        reads.take(in, read);
        in.release();
        assertTrue(server.pipeline().get(SslHandler.class).sslCloseFuture().isSuccess());
        assertFalse(reads.ready(), "TLS's inbound side is done: the handler gets what follows");
    }

    private void assertArrived(int... tags) {
        assertEquals(tags.length, arrived.size());
        for (int i = 0; i < tags.length; i++) {
            assertArrayEquals(payload(tags[i]), arrived.get(i), "frame " + i);
        }
    }

    private OutboundFrame small(int tag) {
        return frame(FrameType.DATA, tag, 8);
    }

    private OutboundFrame frame(FrameType type, int tag, int bytes) {
        FrameHeader h = FrameHeader.of(type, bytes, job.job, 0, 1, 1, tag, 0);
        byte[] p = bytes == 8 ? payload(tag) : new byte[bytes];
        return new OutboundFrame(h, Unpooled.wrappedBuffer(p));
    }

    private static byte[] payload(int tag) {
        return new byte[] {(byte) tag, 1, 2, 3, 4, 5, 6, 7};
    }

    /** The client's records of {@code frames}, one flush each, as read from its socket. */
    private ByteBuf records(OutboundFrame... frames) {
        ByteBuf all = Unpooled.buffer();
        for (OutboundFrame f : frames) {
            client.writeAndFlush(f);
            ByteBuf one = EmbeddedEnds.drain(client);
            all.writeBytes(one);
            one.release();
        }
        return all;
    }

    private static int recordLength(ByteBuf in, int at) {
        return DirectReads.HEADER_BYTES + in.getUnsignedShort(in.readerIndex() + at + DirectReads.LENGTH_OFFSET);
    }
}
