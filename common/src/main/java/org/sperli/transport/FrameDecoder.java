package org.sperli.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;
import org.sperli.SperliException;
import org.sperli.protocol.frame.FrameHeader;
import org.sperli.protocol.frame.FrameType;
import org.sperli.protocol.frame.HeaderCheck;
import org.sperli.protocol.frame.HeaderVerdict;
import org.sperli.protocol.frame.ReceiverContext;

/**
 * Splits the byte stream into frames and applies the header verdict before the payload is read.
 *
 * <p>Accepted frames are emitted as {@link Frame} with a retained slice of the payload. A dropped frame (older
 * incarnation) is discarded as its bytes arrive, so it costs no memory, and nothing is emitted for it. A refused
 * header raises a {@link SperliException} through {@code exceptionCaught} and the decoder then ignores the rest of the
 * stream: after a refusal nothing more from this peer may be interpreted.
 */
public final class FrameDecoder extends ByteToMessageDecoder {
    /**
     * Payloads from this size on are gathered straight into one exactly-sized heap buffer instead of the decoder's
     * cumulation: a 16 MiB message then costs one array, which {@code recv} hands to the caller without a copy,
     * instead of a cumulation grown in steps with fresh direct memory and copied on every step. A COLLECTIVE payload
     * is gathered as two arrays, {@link CollectiveParts}.
     */
    static final int GATHER_ABOVE_BYTES = 64 * 1024;

    private final ReceiverContext context;
    private final RecycledArrays arrays;
    private FrameHeader pending;
    /** The payload being gathered for {@link #pending}, or null when it is sliced from the cumulation. */
    private ByteBuf gathering;
    private long discardRemaining;
    private boolean refused;

    /** Frames for {@code context}; the data arrays of large COLLECTIVE payloads from {@code arrays}. */
    public FrameDecoder(ReceiverContext context, RecycledArrays arrays) {
        this.context = context;
        this.arrays = arrays;
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        if (gathering != null) {
            gathering.release();
            gathering = null;
        }
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        while (!refused) {
            if (discardRemaining > 0) {
                int skip = (int) Math.min(discardRemaining, in.readableBytes());
                in.skipBytes(skip);
                discardRemaining -= skip;
                if (discardRemaining > 0) {
                    return;
                }
            }
            if (gathering != null) {
                gathering.writeBytes(in, Math.min(in.readableBytes(), gathering.writableBytes()));
                if (gathering.isWritable()) {
                    return;
                }
                out.add(new Frame(pending, gathering));
                gathering = null;
                pending = null;
                continue;
            }
            if (pending != null) {
                if (in.readableBytes() < pending.length()) {
                    return;
                }
                out.add(new Frame(pending, in.readRetainedSlice((int) pending.length())));
                pending = null;
                continue;
            }
            if (in.readableBytes() < FrameHeader.LENGTH) {
                return;
            }
            HeaderVerdict verdict = HeaderCheck.check(in.nioBuffer(in.readerIndex(), FrameHeader.LENGTH), 0, context);
            in.skipBytes(FrameHeader.LENGTH);
            if (verdict instanceof HeaderVerdict.Accept accept) {
                pending = accept.header();
                if (pending.length() >= GATHER_ABOVE_BYTES && in.readableBytes() < pending.length()) {
                    // The length passed the 16 MiB check above, so this allocation is bounded.
                    int length = (int) pending.length();
                    gathering = pending.frameType() == FrameType.COLLECTIVE
                            ? new CollectiveParts(length, arrays) : Unpooled.buffer(length, length);
                }
            } else if (verdict instanceof HeaderVerdict.Drop drop) {
                discardRemaining = drop.discardBytes();
            } else {
                refused = true;
                in.skipBytes(in.readableBytes());
                throw ((HeaderVerdict.Refuse) verdict).toException();
            }
        }
        in.skipBytes(in.readableBytes());
    }
}
