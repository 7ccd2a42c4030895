package org.sperli.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.stream.ChunkedInput;
import org.sperli.protocol.frame.FrameHeader;

/**
 * A large payload handed to TLS a piece at a time. Netty's {@code SslHandler} encrypts everything written before a
 * flush and sends none of it until it is done, so a 16 MiB payload written whole kept the receiver idle while the
 * sender encrypted it, and then the sender idle while the receiver decrypted it. In pieces (written and flushed by
 * {@code ChunkedWriteHandler} while the connection is writable) both sides work at once.
 */
final class PayloadChunks implements ChunkedInput<ByteBuf> {
    /**
     * Payload bytes per piece: four TLS records of {@link PeerPipeline#RECORD_PLAINTEXT_BYTES}, so that TLS encrypts
     * each record from a slice of one piece. The first piece is shorter by the frame header, which goes first.
     */
    static final int CHUNK_BYTES = 4 * PeerPipeline.RECORD_PLAINTEXT_BYTES;
    private static final int FIRST_CHUNK_BYTES = CHUNK_BYTES - FrameHeader.LENGTH;

    private final ByteBuf payload;
    private final long length;

    /** Takes ownership of {@code payload}: each piece is a retained slice, and {@link #close} releases it. */
    PayloadChunks(ByteBuf payload) {
        this.payload = payload;
        this.length = payload.readableBytes();
    }

    @Override
    public boolean isEndOfInput() {
        return !payload.isReadable();
    }

    @Override
    public void close() {
        if (payload.refCnt() > 0) {
            payload.release();
        }
    }

    @Deprecated
    @Override
    public ByteBuf readChunk(ChannelHandlerContext ctx) {
        return readChunk(ctx.alloc());
    }

    @Override
    public ByteBuf readChunk(ByteBufAllocator allocator) {
        if (!payload.isReadable()) {
            return null;
        }
        int piece = payload.readableBytes() == length ? FIRST_CHUNK_BYTES : CHUNK_BYTES;
        return payload.readRetainedSlice(Math.min(piece, payload.readableBytes()));
    }

    @Override
    public long length() {
        return length;
    }

    @Override
    public long progress() {
        return length - payload.readableBytes();
    }
}
