package org.sperli.protocol;

import java.nio.ByteBuffer;

/** A payload, token or file with a fixed byte layout: its writer, and so its bytes. */
public interface Encodable {
    /** Bytes {@link #write} writes. */
    int encodedLength();

    /** Writes the layout at {@code out}'s position and advances it; refuses what a receiver would refuse. */
    void write(ByteBuffer out);

    /** The layout as a fresh array. */
    default byte[] toBytes() {
        byte[] out = new byte[encodedLength()];
        write(ByteBuffer.wrap(out));
        return out;
    }
}
