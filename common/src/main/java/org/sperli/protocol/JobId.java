package org.sperli.protocol;

import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;

/** A job id: 16 bytes, shown as 32 lower-case hex digits. An all-zero id is never a valid job. */
public final class JobId {
    /** Bytes of a job id on the wire. */
    public static final int LENGTH = 16;

    private static final HexFormat HEX = HexFormat.of();

    private final byte[] bytes;

    private JobId(byte[] bytes) {
        this.bytes = bytes;
    }

    /** A fresh random job id from a strong random source. */
    public static JobId random(SecureRandom random) {
        byte[] b = new byte[LENGTH];
        do {
            random.nextBytes(b);
        } while (isAllZero(b));
        return new JobId(b);
    }

    /** The id of these 16 bytes (copied). */
    public static JobId of(byte[] bytes) {
        if (bytes.length != LENGTH) {
            throw new IllegalArgumentException("job id must be 16 bytes, got " + bytes.length);
        }
        return new JobId(bytes.clone());
    }

    /** Reads 16 bytes at the buffer's absolute offset; the buffer's position is not moved. */
    public static JobId read(ByteBuffer buffer, int offset) {
        byte[] b = new byte[LENGTH];
        buffer.get(offset, b);
        return new JobId(b);
    }

    /** Parses 32 lower-case hex digits. */
    public static JobId parseHex(String hex) {
        if (hex.length() != 2 * LENGTH
                || !hex.chars().allMatch(c -> (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
            throw new IllegalArgumentException("job id must be 32 lower-case hex digits: " + hex);
        }
        return new JobId(HEX.parseHex(hex));
    }

    /** Writes the 16 bytes at the buffer's absolute offset. */
    public void write(ByteBuffer buffer, int offset) {
        buffer.put(offset, bytes);
    }

    public byte[] toBytes() {
        return bytes.clone();
    }

    public boolean isAllZero() {
        return isAllZero(bytes);
    }

    /** Whether the 16 bytes at {@code offset} of {@code buffer} are this id, without allocating. */
    public boolean matches(ByteBuffer buffer, int offset) {
        for (int i = 0; i < LENGTH; i++) {
            if (buffer.get(offset + i) != bytes[i]) {
                return false;
            }
        }
        return true;
    }

    /** 32 lower-case hex digits, as in certificate names and checkpoint directories. */
    public String hex() {
        return HEX.formatHex(bytes);
    }

    private static boolean isAllZero(byte[] b) {
        for (byte x : b) {
            if (x != 0) {
                return false;
            }
        }
        return true;
    }

    // Equal by its bytes: Object's equality, like a record's, would compare the array by reference. CkptAck,
    // RankFileHeader and JoinToken spell out the same three methods for the same reason.
    @Override
    public boolean equals(Object o) {
        return o instanceof JobId other && Arrays.equals(bytes, other.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return hex();
    }
}
