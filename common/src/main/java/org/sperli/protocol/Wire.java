package org.sperli.protocol;

import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.ReadOnlyBufferException;
import java.util.function.Consumer;
import org.sperli.ErrorCode;
import org.sperli.SperliException;

/**
 * Little-endian access and encoder checks shared by every codec (payloads, token, files); nothing here knows a
 * layout.
 */
public final class Wire {
    public static final long MAX_U32 = 0xffff_ffffL;

    private Wire() {
    }

    /**
     * The payload bytes from {@code payload}'s position to its limit as a little-endian view indexed from 0. The view
     * shares content and has its own position, so the caller's position never moves.
     */
    public static ByteBuffer view(ByteBuffer payload) {
        return payload.slice().order(ByteOrder.LITTLE_ENDIAN);
    }

    /** {@link #view} of a payload of at least {@code fixedLength} bytes; a shorter one is refused with H1610. */
    public static ByteBuffer viewAtLeast(ByteBuffer payload, int fixedLength, String type) {
        ByteBuffer b = view(payload);
        if (b.limit() < fixedLength) {
            throw refuse(ErrorCode.H1610, "length=" + b.limit() + ", " + type + " needs at least " + fixedLength);
        }
        return b;
    }

    /** {@link #view} of a payload of exactly {@code length} bytes; any other length is refused with H1610. */
    public static ByteBuffer viewExactly(ByteBuffer payload, int length, String type) {
        ByteBuffer b = view(payload);
        if (b.limit() != length) {
            throw refuse(ErrorCode.H1610, "length=" + b.limit() + ", " + type + " is exactly " + length);
        }
        return b;
    }

    /**
     * A fresh array of {@code length} bytes that {@code writer} fills at absolute offsets of its little-endian view:
     * the part of a layout that a signature covers, written by the same code that writes the whole layout.
     */
    public static byte[] written(int length, Consumer<ByteBuffer> writer) {
        byte[] out = new byte[length];
        writer.accept(ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN));
        return out;
    }

    /**
     * Claims {@code n} bytes at {@code out}'s position as a little-endian view and advances {@code out} past them.
     * Space and writability are checked first, so a failing write leaves {@code out} untouched.
     */
    public static ByteBuffer claim(ByteBuffer out, int n) {
        if (out.isReadOnly()) {
            throw new ReadOnlyBufferException();
        }
        if (out.remaining() < n) {
            throw new BufferOverflowException();
        }
        int at = out.position();
        ByteBuffer b = out.slice(at, n).order(ByteOrder.LITTLE_ENDIAN);
        out.position(at + n);
        return b;
    }

    public static int u8(ByteBuffer b, int offset) {
        return Byte.toUnsignedInt(b.get(offset));
    }

    public static int u16(ByteBuffer b, int offset) {
        return Short.toUnsignedInt(b.getShort(offset));
    }

    public static long u32(ByteBuffer b, int offset) {
        return Integer.toUnsignedLong(b.getInt(offset));
    }

    /** A read-only slice of {@code b} that callers can move freely without touching the record that holds it. */
    public static ByteBuffer readOnlySlice(ByteBuffer b, int offset, int length) {
        return b.slice(offset, length).asReadOnlyBuffer();
    }

    public static SperliException refuse(ErrorCode code, String reason) {
        return new SperliException(code, reason);
    }

    /** An encoder's refusal: the same words as the decoder's, as a programming error of the sender. */
    public static void requireEncodable(String fault) {
        if (fault != null) {
            throw new IllegalArgumentException("refusing to encode what a receiver refuses: " + fault);
        }
    }

    public static String u8Fault(String field, long value) {
        return value < 0 || value > 0xff ? field + "=" + value + ", expected 0..255" : null;
    }

    public static String u32Fault(String field, long value) {
        return value < 0 || value > MAX_U32 ? field + "=" + value + ", expected 0..4294967295" : null;
    }

    /** The fault of a version field that is not v1's ({@link Limits#VERSION}), or null. */
    public static String versionFault(long version) {
        return version != Limits.VERSION ? "version=" + version + ", expected " + Limits.VERSION : null;
    }

    /** The first non-null fault, in argument order. */
    public static String first(String... faults) {
        for (String f : faults) {
            if (f != null) {
                return f;
            }
        }
        return null;
    }
}
