package org.sperli.transport;

import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.sperli.protocol.payload.CollectiveHeader;

/**
 * A large COLLECTIVE payload as {@link FrameDecoder} gathers it: two arrays, the 16-byte collective header and then
 * the data. The data is so an array of its own, exactly its length, which a collective may hand to its caller as the
 * result instead of copying it. Both arrays are plain heap arrays, never Netty's pooled memory: the data array stays
 * valid for whoever took it after the frame was released. It comes from the rank's {@link RecycledArrays} when one of
 * its length is kept there, and goes back there only through {@link #recycle}, by code that read it and keeps no view
 * of it. The parts are read with {@code nioBuffers()}, which copies nothing ({@code nioBuffer()} of a composite would
 * join them into a copy).
 */
public final class CollectiveParts extends CompositeByteBuf {
    private final byte[] data;
    private final RecycledArrays arrays;

    /**
     * An empty buffer of {@code length} bytes, at least the collective header, for the decoder to fill; its data array
     * from {@code arrays}.
     */
    CollectiveParts(int length, RecycledArrays arrays) {
        super(UnpooledByteBufAllocator.DEFAULT, false, 2);
        this.arrays = arrays;
        data = arrays.take(length - CollectiveHeader.LENGTH);
        addComponent(false, Unpooled.wrappedBuffer(new byte[CollectiveHeader.LENGTH]));
        addComponent(false, Unpooled.wrappedBuffer(data));
    }

    /**
     * Gives the data array back for a later frame of its length: only once the frame was read and released, by code
     * that handed the array to nobody and keeps no view of it.
     */
    public void recycle() {
        arrays.give(data);
    }

    /** The data after the collective header; complete once the decoder emitted the frame. */
    public byte[] data() {
        return data;
    }
}
