package org.sperli.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.protocol.JobId;
import org.sperli.protocol.frame.FrameHeader;
import org.sperli.protocol.frame.FrameType;
import org.sperli.protocol.frame.ReceiverContext;
import org.sperli.protocol.payload.CollectiveHeader;

class FrameDecoderTest {
    private static final JobId JOB = JobId.parseHex("00112233445566778899aabbccddeeff");
    /** Receiver: rank 1 of 4 at incarnation 2, on the connection authenticated as rank 0. */
    private static final ReceiverContext CONTEXT = new ReceiverContext(JOB, 4, 1, 0, 2);

    private static byte[] frame(long incarnation, long tag, byte[] payload) {
        return frame(FrameType.DATA, incarnation, tag, payload);
    }

    private static byte[] frame(FrameType type, long incarnation, long tag, byte[] payload) {
        FrameHeader h = new FrameHeader(payload.length, type.code(), 0, 0, 0, JOB, 0, 1, incarnation, tag, 0);
        byte[] out = new byte[FrameHeader.LENGTH + payload.length];
        h.writeUnchecked(ByteBuffer.wrap(out), 0);
        System.arraycopy(payload, 0, out, FrameHeader.LENGTH, payload.length);
        return out;
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    /** Feeds the stream in two pieces split at {@code at} and collects what the decoder emits. */
    private static List<Frame> decodeSplit(byte[] stream, int at) {
        EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(CONTEXT, new RecycledArrays()));
        ch.writeInbound(Unpooled.wrappedBuffer(stream, 0, at));
        ch.writeInbound(Unpooled.wrappedBuffer(stream, at, stream.length - at));
        List<Frame> frames = new ArrayList<>();
        Frame f;
        while ((f = ch.readInbound()) != null) {
            frames.add(f);
        }
        ch.finishAndReleaseAll();
        return frames;
    }

    private static byte[] payloadOf(Frame f) {
        ByteBuf p = f.payload();
        byte[] out = new byte[p.readableBytes()];
        p.getBytes(p.readerIndex(), out);
        f.release();
        return out;
    }

    @Test
    void emitsTheSameFramesWhereverTheStreamIsSplit() {
        byte[] a = "first".getBytes(StandardCharsets.US_ASCII);
        byte[] stream = concat(frame(2, 7, a), frame(2, 8, new byte[0]), frame(2, 9, a));
        for (int at = 0; at <= stream.length; at++) {
            List<Frame> frames = decodeSplit(stream, at);
            assertEquals(3, frames.size(), "split at " + at);
            assertEquals(7, frames.get(0).header().tag());
            assertArrayEquals(a, payloadOf(frames.get(0)));
            assertEquals(0, payloadOf(frames.get(1)).length);
            assertArrayEquals(a, payloadOf(frames.get(2)));
        }
    }

    @Test
    void gathersALargePayloadIntoOneExactArrayWhereverTheStreamIsSplit() {
        byte[] big = new byte[FrameDecoder.GATHER_ABOVE_BYTES + 1000];
        new java.util.Random(7).nextBytes(big);
        byte[] stream = concat(frame(2, 1, big), frame(2, 2, "small".getBytes(StandardCharsets.US_ASCII)));
        for (int at : new int[] {0, 10, FrameHeader.LENGTH, FrameHeader.LENGTH + 1, 40_000, big.length,
                FrameHeader.LENGTH + big.length, stream.length - 1, stream.length}) {
            List<Frame> frames = decodeSplit(stream, at);
            assertEquals(2, frames.size(), "split at " + at);
            ByteBuf payload = frames.get(0).payload();
            if (at >= FrameHeader.LENGTH && at < FrameHeader.LENGTH + big.length) {
                assertTrue(payload.hasArray() && payload.array().length == big.length,
                        "gathered into an exact array when split at " + at);
            }
            assertArrayEquals(big, payloadOf(frames.get(0)));
            assertEquals("small", new String(payloadOf(frames.get(1)), StandardCharsets.US_ASCII));
        }
    }

    @Test
    void gathersALargeCollectivePayloadAsItsHeaderAndAnExactDataArrayWhereverTheStreamIsSplit() {
        byte[] big = new byte[FrameDecoder.GATHER_ABOVE_BYTES + 1000];
        new java.util.Random(8).nextBytes(big);
        byte[] stream = frame(FrameType.COLLECTIVE, 2, 0, big);
        for (int at : new int[] {FrameHeader.LENGTH, FrameHeader.LENGTH + 5,
                FrameHeader.LENGTH + CollectiveHeader.LENGTH, FrameHeader.LENGTH + 40_000, stream.length - 1}) {
            List<Frame> frames = decodeSplit(stream, at);
            assertEquals(1, frames.size(), "split at " + at);
            CollectiveParts parts = assertInstanceOf(CollectiveParts.class, frames.get(0).payload(), "split at " + at);
            assertArrayEquals(Arrays.copyOfRange(big, CollectiveHeader.LENGTH, big.length), parts.data());
            assertArrayEquals(big, payloadOf(frames.get(0)));
        }
    }

    @Test
    void aLargeCollectivePayloadTakesADataArrayGivenBackAndOverwritesAllOfIt() {
        RecycledArrays arrays = new RecycledArrays();
        byte[] big = new byte[FrameDecoder.GATHER_ABOVE_BYTES + 1000];
        new java.util.Random(9).nextBytes(big);
        byte[] stale = new byte[big.length - CollectiveHeader.LENGTH];
        Arrays.fill(stale, (byte) 0x5a);
        arrays.give(stale);
        byte[] stream = frame(FrameType.COLLECTIVE, 2, 0, big);

        EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(CONTEXT, arrays));
        int at = FrameHeader.LENGTH + 10;
        ch.writeInbound(Unpooled.wrappedBuffer(stream, 0, at));
        ch.writeInbound(Unpooled.wrappedBuffer(stream, at, stream.length - at));
        Frame f = ch.readInbound();

        CollectiveParts parts = assertInstanceOf(CollectiveParts.class, f.payload());
        assertSame(stale, parts.data(), "the array given back");
        assertArrayEquals(Arrays.copyOfRange(big, CollectiveHeader.LENGTH, big.length), parts.data());
        f.release();
        parts.recycle();
        assertEquals(stale.length, arrays.keptBytes());
        ch.finishAndReleaseAll();
    }

    @Test
    void dropsOldIncarnationFrameAndKeepsTheConnectionUpWhereverSplit() {
        byte[] old = frame(1, 0x8000_0000L, new byte[300]);
        byte[] current = frame(2, 5, "kept".getBytes(StandardCharsets.US_ASCII));
        byte[] stream = concat(old, current);
        for (int at = 0; at <= stream.length; at++) {
            List<Frame> frames = decodeSplit(stream, at);
            assertEquals(1, frames.size(), "split at " + at);
            assertEquals(2, frames.get(0).header().incarnation());
            assertEquals("kept", new String(payloadOf(frames.get(0)), StandardCharsets.US_ASCII));
        }
    }

    @Test
    void refusesLengthAboveMaximumAfterHeaderBeforeAnyPayloadByte() {
        EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(CONTEXT, new RecycledArrays()));
        byte[] header = new byte[FrameHeader.LENGTH];
        new FrameHeader(16_777_217L, 2, 0, 0, 0, JOB, 0, 1, 2, 0, 0).writeUnchecked(ByteBuffer.wrap(header), 0);
        DecoderException e = assertThrows(DecoderException.class,
                () -> ch.writeInbound(Unpooled.wrappedBuffer(header)));
        SperliException refusal = (SperliException) e.getCause();
        assertEquals(ErrorCode.H1610, refusal.code());
        assertTrue(refusal.reason().contains("length=16777217"), refusal.reason());
        assertNull(ch.readInbound());
        ch.finishAndReleaseAll();
    }

    @Test
    void ignoresEverythingAfterARefusal() {
        EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(CONTEXT, new RecycledArrays()));
        byte[] future = frame(3, 0, new byte[4]);
        assertThrows(DecoderException.class, () -> ch.writeInbound(Unpooled.wrappedBuffer(future)));
        ch.writeInbound(Unpooled.wrappedBuffer(frame(2, 1, new byte[4])));
        assertNull(ch.readInbound());
        ch.finishAndReleaseAll();
    }

    @Test
    void encoderWritesHeaderThenThePayloadBufferItselfWhenTheyDoNotFitOneRecord() {
        EmbeddedChannel ch = new EmbeddedChannel(FrameEncoder.INSTANCE);
        int n = FrameEncoder.ONE_BUFFER_PAYLOAD_BYTES + 1;
        ByteBuf payload = Unpooled.wrappedBuffer(new byte[n]);
        FrameHeader h = FrameHeader.of(FrameType.DATA, n, JOB, 1, 0, 2, 4, 0);
        ch.writeOutbound(new OutboundFrame(h, payload));
        ByteBuf header = ch.readOutbound();
        ByteBuf body = ch.readOutbound();
        assertEquals(FrameHeader.LENGTH, header.readableBytes());
        assertTrue(body == payload, "the payload buffer is passed on, not copied");
        header.release();
        body.release();
        ch.finishAndReleaseAll();
    }

    @Test
    void encoderWritesAFrameThatFitsOneRecordAsOneBufferAndReleasesThePayload() {
        // TLS would copy header and payload into one buffer anyway; copied here, they pass the handlers once.
        EmbeddedChannel ch = new EmbeddedChannel(FrameEncoder.INSTANCE);
        for (int n : new int[] {0, 3, FrameEncoder.ONE_BUFFER_PAYLOAD_BYTES}) {
            byte[] bytes = new byte[n];
            Arrays.fill(bytes, (byte) 7);
            // Not wrappedBuffer: for n = 0 it gives the shared empty buffer, which no release frees.
            ByteBuf payload = Unpooled.buffer(n).writeBytes(bytes);
            FrameHeader h = FrameHeader.of(FrameType.DATA, n, JOB, 1, 0, 2, 4, 0);
            ch.writeOutbound(new OutboundFrame(h, payload));
            ByteBuf frame = ch.readOutbound();
            assertNull(ch.readOutbound(), "one buffer for a frame of " + n + " payload bytes");
            byte[] wire = new byte[frame.readableBytes()];
            frame.readBytes(wire);
            frame.release();
            byte[] expected = new byte[FrameHeader.LENGTH + n];
            System.arraycopy(h.toBytes(), 0, expected, 0, FrameHeader.LENGTH);
            System.arraycopy(bytes, 0, expected, FrameHeader.LENGTH, n);
            assertArrayEquals(expected, wire);
            assertEquals(0, payload.refCnt(), "the payload is released once copied");
        }
        ch.finishAndReleaseAll();
    }

    @Test
    void encoderRefusesAHeaderEveryReceiverRefuses() {
        EmbeddedChannel ch = new EmbeddedChannel(FrameEncoder.INSTANCE);
        FrameHeader reservedTag = FrameHeader.of(FrameType.DATA, 0, JOB, 1, 0, 2, 0x8000_0000L, 0);
        assertThrows(Exception.class, () -> ch.writeOutbound(OutboundFrame.empty(reservedTag)));
        ch.finishAndReleaseAll();
    }
}
