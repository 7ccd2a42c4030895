package org.sperli.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.ChannelFuture;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.stream.ChunkedWriteHandler;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sperli.protocol.JobId;
import org.sperli.protocol.frame.FrameHeader;
import org.sperli.protocol.frame.FrameType;

/** What reaches TLS from the frame encoder: large payloads in pieces, every frame whole and in order. */
class OutboundPiecesTest {
    private static final JobId JOB = JobId.parseHex("00112233445566778899aabbccddeeff");

    private static OutboundFrame frame(long tag, byte[] payload) {
        FrameHeader h = FrameHeader.of(FrameType.DATA, payload.length, JOB, 0, 1, 1, tag, 0);
        return OutboundFrame.of(h, payload);
    }

    private static byte[] pattern(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 31 + seed);
        }
        return b;
    }

    @Test
    void aLargePayloadReachesTlsInPiecesAndTheFrameAfterItFollowsWhole() {
        EmbeddedChannel ch = new EmbeddedChannel(new ChunkedWriteHandler(), FrameEncoder.INSTANCE);
        byte[] big = pattern(PayloadChunks.CHUNK_BYTES * 5 + 123, 7);
        byte[] small = pattern(40, 3);
        ChannelFuture first = ch.writeAndFlush(frame(5, big));
        ChannelFuture second = ch.writeAndFlush(frame(6, small));
        ch.runPendingTasks();
        assertTrue(first.isSuccess() && second.isSuccess());

        List<Integer> sizes = new ArrayList<>();
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        ByteBuf piece;
        while ((piece = ch.readOutbound()) != null) {
            sizes.add(piece.readableBytes());
            byte[] b = new byte[piece.readableBytes()];
            piece.readBytes(b);
            piece.release();
            wire.write(b, 0, b.length);
        }
        assertTrue(sizes.stream().allMatch(s -> s <= PayloadChunks.CHUNK_BYTES), sizes.toString());
        assertTrue(sizes.size() >= 7, "header, six pieces, then the small frame: " + sizes);

        byte[] expected = concat(frame(5, big).header().toBytes(), big, frame(6, small).header().toBytes(), small);
        assertArrayEquals(expected, wire.toByteArray());
        assertEquals(false, ch.finish());
    }

    @Test
    void aPayloadUpToOnePieceGoesAsItIs() {
        EmbeddedChannel ch = new EmbeddedChannel(new ChunkedWriteHandler(), FrameEncoder.INSTANCE);
        byte[] payload = pattern(PayloadChunks.CHUNK_BYTES, 1);
        ch.writeAndFlush(frame(1, payload));
        ByteBuf header = ch.readOutbound();
        ByteBuf body = ch.readOutbound();
        assertEquals(FrameHeader.LENGTH, header.readableBytes());
        assertEquals(payload.length, body.readableBytes());
        header.release();
        body.release();
        ch.finish();
    }

    @Test
    void piecesReleaseThePayloadWhenTheConnectionClosesHalfWay() {
        ByteBuf payload = Unpooled.wrappedBuffer(pattern(PayloadChunks.CHUNK_BYTES * 3, 2));
        PayloadChunks chunks = new PayloadChunks(payload);
        ByteBuf one = chunks.readChunk(UnpooledByteBufAllocator.DEFAULT);
        one.release();
        chunks.close();
        assertEquals(0, payload.refCnt());
        assertEquals(PayloadChunks.CHUNK_BYTES - FrameHeader.LENGTH, chunks.progress());
    }

    @Test
    void piecesEndAtTlsRecordBoundariesCountingTheHeaderBeforeThem() {
        ByteBuf payload = Unpooled.wrappedBuffer(pattern(PayloadChunks.CHUNK_BYTES * 3, 4));
        PayloadChunks chunks = new PayloadChunks(payload);
        List<Integer> sizes = new ArrayList<>();
        for (ByteBuf piece = chunks.readChunk(UnpooledByteBufAllocator.DEFAULT); piece != null;
                piece = chunks.readChunk(UnpooledByteBufAllocator.DEFAULT)) {
            sizes.add(piece.readableBytes());
            piece.release();
        }
        chunks.close();
        int sent = FrameHeader.LENGTH;
        for (int i = 0; i < sizes.size() - 1; i++) {
            sent += sizes.get(i);
            assertEquals(0, sent % PeerPipeline.RECORD_PLAINTEXT_BYTES, "piece " + i + " of " + sizes);
        }
        assertEquals(PayloadChunks.CHUNK_BYTES * 3, sizes.stream().mapToInt(Integer::intValue).sum());
    }

    @Test
    void recordsFromDirectReadsAreGatheredOnTheHeap() {
        ByteBuf first = Unpooled.directBuffer(10).writeBytes(pattern(10, 1));
        ByteBuf second = Unpooled.directBuffer(20).writeBytes(pattern(20, 2));
        ByteBuf acc = HeapCumulator.INSTANCE.cumulate(UnpooledByteBufAllocator.DEFAULT, Unpooled.EMPTY_BUFFER, first);
        acc = HeapCumulator.INSTANCE.cumulate(UnpooledByteBufAllocator.DEFAULT, acc, second);
        assertTrue(acc.hasArray());
        byte[] got = new byte[acc.readableBytes()];
        acc.readBytes(got);
        assertArrayEquals(concat(pattern(10, 1), pattern(20, 2)), got);
        assertEquals(0, first.refCnt());
        assertEquals(0, second.refCnt());
        acc.release();
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.write(p, 0, p.length);
        }
        return out.toByteArray();
    }
}
