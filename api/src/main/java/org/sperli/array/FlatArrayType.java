package org.sperli.array;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;
import org.sperli.ArrayType;
import org.sperli.ElementType;
import org.sperli.ReduceOp;
import org.sperli.collective.Combine;

/**
 * A flat Java array of one element type: encoded as its elements only, least significant byte first, shape
 * {@code {length}}. Subclasses supply the bulk copies between the array and a little-endian buffer; the length checks
 * live here, once.
 *
 * <p>Decoding allocates {@code remaining / width} elements, which is never more bytes than it was given, and only after
 * the remaining bytes were found to be a whole number of elements.
 */
abstract class FlatArrayType<T> implements ArrayType<T> {
    private final ElementType type;
    private final String name;

    FlatArrayType(ElementType type, String name) {
        this.type = type;
        this.name = name;
    }

    /** Elements of the array. */
    abstract int length(T value);

    /** Copies every element into {@code out}, a little-endian buffer with room for them at its position. */
    abstract void put(ByteBuffer out, T value);

    /** A new array of {@code n} elements read from {@code in}, a little-endian buffer holding them at its position. */
    abstract T get(ByteBuffer in, int n);

    /** acc op b into a new array, element by element; both have the same length. */
    abstract T combine(T a, T b, ReduceOp op);

    @Override
    public final int encodedLength(T value) {
        Objects.requireNonNull(value, "value");
        long n = (long) length(value) * type.width();
        if (n > Integer.MAX_VALUE) {
            throw ArrayTypes.refused(name + " of " + length(value) + " elements is " + n
                    + " bytes, more than a buffer holds");
        }
        return (int) n;
    }

    @Override
    public final int encode(T value, ByteBuffer buffer) {
        int n = encodedLength(value);
        ArrayTypes.requireRoom(buffer, n, name);
        ByteBuffer out = buffer.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        put(out, value);
        buffer.position(buffer.position() + n);
        return n;
    }

    @Override
    public final T decode(ByteBuffer bytes) {
        int n = bytes.remaining();
        if (n % type.width() != 0) {
            throw ArrayTypes.refused(name + ": length=" + n + " is not a whole number of " + type.width()
                    + "-byte elements");
        }
        T value = get(bytes.duplicate().order(ByteOrder.LITTLE_ENDIAN), n / type.width());
        bytes.position(bytes.limit());
        return value;
    }

    @Override
    public final ElementType elementType(T value) {
        return type;
    }

    @Override
    public final long[] shape(T value) {
        return new long[] {length(value)};
    }

    @Override
    public final boolean isFlat() {
        return true;
    }

    /**
     * {@link Combine} over the arrays themselves, without the round trip through bytes that the default takes: the
     * same bits, since Combine's typed forms are bit-identical to its byte form.
     */
    @Override
    public final T reduce(T a, T b, ReduceOp op) {
        if (length(a) != length(b)) {
            throw ArrayTypes.refused("shapes differ: [" + length(a) + "] and [" + length(b) + "]");
        }
        Combine.check(type, op, 0);
        return combine(a, b, op);
    }

    @Override
    public String toString() {
        return name;
    }
}
