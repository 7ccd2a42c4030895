package org.sperli.protocol;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Builds expected wire bytes field by field, little endian, independently of the codecs under test, so that a test
 * states each field's width and value and a codec that agrees with itself but not with the tables still fails.
 */
public final class LeBytes {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    public static LeBytes le() {
        return new LeBytes();
    }

    public LeBytes u8(long v) {
        out.write((int) v);
        return this;
    }

    public LeBytes u16(long v) {
        return u8(v).u8(v >>> 8);
    }

    public LeBytes u32(long v) {
        return u16(v).u16(v >>> 16);
    }

    public LeBytes u64(long v) {
        return u32(v).u32(v >>> 32);
    }

    public LeBytes bytes(byte[] b) {
        out.writeBytes(b);
        return this;
    }

    /** {@code n} bytes of {@code value}. */
    public LeBytes fill(int n, int value) {
        byte[] b = new byte[n];
        Arrays.fill(b, (byte) value);
        return bytes(b);
    }

    public byte[] toBytes() {
        return out.toByteArray();
    }

    public ByteBuffer buffer() {
        return ByteBuffer.wrap(toBytes());
    }

    /** The first {@code n} bytes of {@code b}. */
    public static ByteBuffer cut(byte[] b, int n) {
        return ByteBuffer.wrap(Arrays.copyOf(b, n));
    }

    /** {@code b} with one more byte. */
    public static ByteBuffer withTrailingByte(byte[] b) {
        return ByteBuffer.wrap(Arrays.copyOf(b, b.length + 1));
    }

    /**
     * {@code b} in the middle of a larger, big-endian buffer that is read-only and direct: position and limit
     * frame exactly the payload, with poison bytes on both sides, as a transport hands it over.
     */
    public static ByteBuffer embedded(byte[] b) {
        ByteBuffer big = ByteBuffer.allocateDirect(b.length + 14);
        for (int i = 0; i < big.capacity(); i++) {
            big.put(i, (byte) 0xee);
        }
        big.put(7, b);
        return big.position(7).limit(7 + b.length).asReadOnlyBuffer();
    }
}
