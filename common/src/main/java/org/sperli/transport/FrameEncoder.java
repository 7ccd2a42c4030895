package org.sperli.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageEncoder;
import java.util.List;

/**
 * Writes an {@link OutboundFrame} as two buffers, the 52 header bytes and the payload, so that a 16 MiB payload goes
 * to TLS without being copied into a frame buffer first. {@link org.sperli.protocol.frame.FrameHeader#write} refuses a
 * header that a receiver would refuse.
 */
@ChannelHandler.Sharable
public final class FrameEncoder extends MessageToMessageEncoder<OutboundFrame> {
    public static final FrameEncoder INSTANCE = new FrameEncoder();

    private FrameEncoder() {
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, OutboundFrame frame, List<Object> out) {
        // Ownership of the payload passes to the pipeline here: the TLS handler releases it once encrypted.
        ByteBuf payload = frame.payload();
        byte[] header;
        try {
            header = frame.header().toBytes();
        } catch (IllegalArgumentException e) {
            payload.release();
            throw e;
        }
        out.add(Unpooled.wrappedBuffer(header));
        if (payload.readableBytes() > PayloadChunks.CHUNK_BYTES) {
            out.add(new PayloadChunks(payload));
        } else if (payload.isReadable()) {
            out.add(payload);
        } else {
            payload.release();
        }
    }
}
