package org.sperli.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.sperli.protocol.frame.FrameHeader;

/**
 * A frame on its way out: header fields and the payload as it is (a wrapped user array, never a copy). The encoder
 * writes the 52 header bytes and then the payload buffer itself.
 */
public record OutboundFrame(FrameHeader header, ByteBuf payload) {
    public OutboundFrame {
        if (header.length() != payload.readableBytes()) {
            throw new IllegalArgumentException("header length " + header.length() + " != payload "
                    + payload.readableBytes());
        }
    }

    /** A frame with a small payload given as an array (wrapped, not copied). */
    public static OutboundFrame of(FrameHeader header, byte[] payload) {
        return new OutboundFrame(header, Unpooled.wrappedBuffer(payload));
    }

    /** A frame without payload. */
    public static OutboundFrame empty(FrameHeader header) {
        return new OutboundFrame(header, Unpooled.EMPTY_BUFFER);
    }
}
