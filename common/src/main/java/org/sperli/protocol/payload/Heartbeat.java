package org.sperli.protocol.payload;

import java.nio.ByteBuffer;
import org.sperli.protocol.Encodable;
import org.sperli.protocol.Wire;

/**
 * The HEARTBEAT payload (tables section 2): the sender's counter on this connection, 1, 2, 3, ...
 *
 * <pre>
 * off size field
 *   0    8 counter   unsigned; not checked by the receiver (tables section 10)
 * </pre>
 *
 * <p>Any other length is H1610. The counter is unsigned 64-bit held in a {@code long}.
 */
public record Heartbeat(long counter) implements Encodable {
    public static final int COUNTER_OFFSET = 0;
    /** Bytes of the payload: 8. */
    public static final int LENGTH = COUNTER_OFFSET + 8;

    public static Heartbeat read(ByteBuffer payload) {
        ByteBuffer b = Wire.viewExactly(payload, LENGTH, "HEARTBEAT");
        return new Heartbeat(b.getLong(COUNTER_OFFSET));
    }

    @Override
    public int encodedLength() {
        return LENGTH;
    }

    @Override
    public void write(ByteBuffer out) {
        Wire.claim(out, LENGTH).putLong(COUNTER_OFFSET, counter);
    }
}
