package org.sperli.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.AbstractReferenceCounted;
import io.netty.util.ReferenceCounted;
import org.sperli.protocol.frame.FrameHeader;

/**
 * A frame that passed the header check: the header and a retained slice of the payload (never copied). Whoever takes
 * a frame from the pipeline releases it, which releases the payload.
 */
public final class Frame extends AbstractReferenceCounted {
    private final FrameHeader header;
    private final ByteBuf payload;

    public Frame(FrameHeader header, ByteBuf payload) {
        if (header.length() != payload.readableBytes()) {
            throw new IllegalArgumentException("header length " + header.length() + " != payload "
                    + payload.readableBytes());
        }
        this.header = header;
        this.payload = payload;
    }

    public FrameHeader header() {
        return header;
    }

    /**
     * This frame with a payload of its own, for a frame that is kept waiting: a small payload is a slice of the read
     * buffer it arrived in, and a queued slice would hold that whole buffer (17 KiB or more for 8 bytes). Copied once
     * into an exactly sized array, which {@code recv} then hands over without a second copy. A payload of
     * {@link FrameDecoder#GATHER_ABOVE_BYTES} or more is kept as it is: the decoder gathers such payloads into arrays
     * of their own, and one that came whole in a single read holds a buffer of about its own size. This frame is
     * released when a copy is returned.
     */
    public Frame detached() {
        if (payload.readableBytes() >= FrameDecoder.GATHER_ABOVE_BYTES || (payload.hasArray()
                && payload.arrayOffset() == 0 && payload.readerIndex() == 0
                && payload.array().length == payload.readableBytes())) {
            return this;
        }
        ByteBuf own = Unpooled.buffer(payload.readableBytes(), payload.readableBytes());
        own.writeBytes(payload, payload.readerIndex(), payload.readableBytes());
        release();
        return new Frame(header, own);
    }

    /** The payload; valid until the frame is released. */
    public ByteBuf payload() {
        return payload;
    }

    @Override
    protected void deallocate() {
        payload.release();
    }

    @Override
    public ReferenceCounted touch(Object hint) {
        payload.touch(hint);
        return this;
    }

    @Override
    public String toString() {
        return "Frame[" + header.frameType() + " " + header.sourceRank() + "->" + header.targetRank()
                + " tag=" + header.tag() + " len=" + header.length() + "]";
    }
}
