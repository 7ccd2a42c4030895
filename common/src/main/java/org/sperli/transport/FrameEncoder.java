package org.sperli.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageEncoder;
import java.util.List;
import org.sperli.protocol.frame.FrameHeader;

/**
 * Writes an {@link OutboundFrame} as two buffers, the 52 header bytes and the payload, so that a 16 MiB payload goes
 * to TLS without being copied into a frame buffer first; a frame that fits one TLS record goes as one buffer.
 * {@link org.sperli.protocol.frame.FrameHeader#write} refuses a header that a receiver would refuse.
 *
 * <p>Why one buffer for a small frame: Netty's {@code SslHandler} copies a header and a payload that fit one record
 * into a buffer of its own anyway, before encrypting them together (its coalescing queue cannot append to the
 * header's 52-byte buffer), and two buffers cost two passes through the handlers below this one, a promise for each
 * and one to combine them. Copying them here once, into a heap buffer, takes those off every small message (section
 * 6.6 of docs/performance.md).
 */
@ChannelHandler.Sharable
public final class FrameEncoder extends MessageToMessageEncoder<OutboundFrame> {
    public static final FrameEncoder INSTANCE = new FrameEncoder();
    /** The largest payload that goes in one buffer with its header: header and payload fill one TLS record. */
    static final int ONE_BUFFER_PAYLOAD_BYTES = PeerPipeline.RECORD_PLAINTEXT_BYTES - FrameHeader.LENGTH;

    private FrameEncoder() {
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, OutboundFrame frame, List<Object> out) {
        // Ownership of the payload passes to the pipeline here: released once copied, or by TLS once encrypted.
        ByteBuf payload = frame.payload();
        byte[] header;
        try {
            header = frame.header().toBytes();
        } catch (IllegalArgumentException e) {
            payload.release();
            throw e;
        }
        int n = payload.readableBytes();
        if (n <= ONE_BUFFER_PAYLOAD_BYTES) {
            try {
                out.add(ctx.alloc().heapBuffer(FrameHeader.LENGTH + n).writeBytes(header).writeBytes(payload));
            } finally {
                payload.release();
            }
            return;
        }
        out.add(Unpooled.wrappedBuffer(header));
        if (n > PayloadChunks.CHUNK_BYTES) {
            out.add(new PayloadChunks(payload));
        } else {
            out.add(payload);
        }
    }
}
