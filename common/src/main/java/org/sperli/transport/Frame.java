package org.sperli.transport;

import io.netty.buffer.ByteBuf;
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
