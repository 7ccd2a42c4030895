package org.sperli.protocol.frame;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.sperli.protocol.Limits;

/** Whole frames in one heap buffer, for tests, vectors and small control frames; the transport streams instead. */
public final class Frames {
    private Frames() {
    }

    /**
     * The header's 52 bytes followed by the payload's remaining bytes (none for {@code null}), positioned at 0. The
     * payload's position is not moved. The header's length must equal the payload length, and the header must pass
     * the checks {@link FrameHeader#write} makes; otherwise IllegalArgumentException, before anything is allocated.
     */
    public static ByteBuffer encode(FrameHeader header, ByteBuffer payloadOrNull) {
        int payloadLength = payloadOrNull == null ? 0 : payloadOrNull.remaining();
        if (header.length() != payloadLength) {
            throw new IllegalArgumentException("header length=" + header.length() + ", payload has "
                    + payloadLength + " bytes");
        }
        if (payloadLength > Limits.MAX_PAYLOAD) {
            throw new IllegalArgumentException("length=" + payloadLength + ", maximum " + Limits.MAX_PAYLOAD);
        }
        String fault = HeaderCheck.contextFreeFault(header);
        if (fault != null) {
            throw new IllegalArgumentException("refusing to send a header a receiver refuses: " + fault);
        }
        ByteBuffer frame = ByteBuffer.allocate(FrameHeader.LENGTH + payloadLength).order(ByteOrder.LITTLE_ENDIAN);
        header.write(frame, 0);
        if (payloadOrNull != null) {
            frame.put(FrameHeader.LENGTH, payloadOrNull, payloadOrNull.position(), payloadLength);
        }
        return frame;
    }

    /** As {@link #encode(FrameHeader, ByteBuffer)} with the payload's bytes. */
    public static ByteBuffer encode(FrameHeader header, byte[] payload) {
        return encode(header, ByteBuffer.wrap(payload));
    }
}
