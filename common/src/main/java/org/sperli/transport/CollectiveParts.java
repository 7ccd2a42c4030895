package org.sperli.transport;

import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.sperli.protocol.payload.CollectiveHeader;

/**
 * A large COLLECTIVE payload as {@link FrameDecoder} gathers it: two arrays, the 16-byte collective header and then
 * the data. The data is so an array of its own, exactly its length, which a collective may hand to its caller as the
 * result instead of copying it. Both arrays are plain heap arrays, never pooled: the data array stays valid for
 * whoever took it after the frame was released. The parts are read with {@code nioBuffers()}, which copies nothing
 * ({@code nioBuffer()} of a composite would join them into a copy).
 */
public final class CollectiveParts extends CompositeByteBuf {
    private final byte[] data;

    /** An empty buffer of {@code length} bytes, at least the collective header, for the decoder to fill. */
    CollectiveParts(int length) {
        super(UnpooledByteBufAllocator.DEFAULT, false, 2);
        data = new byte[length - CollectiveHeader.LENGTH];
        addComponent(false, Unpooled.wrappedBuffer(new byte[CollectiveHeader.LENGTH]));
        addComponent(false, Unpooled.wrappedBuffer(data));
    }

    /** The data after the collective header; complete once the decoder emitted the frame. */
    public byte[] data() {
        return data;
    }
}
