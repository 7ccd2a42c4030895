package org.sperli.array;

import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.util.Arrays;
import org.sperli.ArrayType;
import org.sperli.ElementType;
import org.sperli.ErrorCode;
import org.sperli.ReduceOp;
import org.sperli.SperliException;
import org.sperli.collective.Combine;

/**
 * The ready {@link ArrayType}s: flat Java arrays of the seven element types (tables section 5) and one type with a
 * shape, {@link #MATRIX_2D}. Flat arrays encode as their elements only, little endian, with shape {@code {length}};
 * the unsigned views carry the same bits as their signed arrays and differ only in the element type they report,
 * which changes min, max and the order of reduce.
 *
 * <pre>{@code
 * double[] sums = comm.allreduce(local, ReduceOp.SUM, ArrayTypes.F64);
 * Matrix2D total = comm.allreduce(Matrix2D.of(2, 2, a, b, c, d), ReduceOp.SUM, ArrayTypes.MATRIX_2D);
 * }</pre>
 */
public final class ArrayTypes {
    /** {@code byte[]}, element type bytes (reduced only with band, bor, bxor). */
    public static final ArrayType<byte[]> BYTES = new FlatTypes.Bytes();
    /** {@code int[]}, element type i32. */
    public static final ArrayType<int[]> I32 = new FlatTypes.Ints(false);
    /** {@code int[]} read as unsigned 32-bit elements, element type u32. */
    public static final ArrayType<int[]> U32 = new FlatTypes.Ints(true);
    /** {@code long[]}, element type i64. */
    public static final ArrayType<long[]> I64 = new FlatTypes.Longs(false);
    /** {@code long[]} read as unsigned 64-bit elements, element type u64. */
    public static final ArrayType<long[]> U64 = new FlatTypes.Longs(true);
    /** {@code float[]}, element type f32. */
    public static final ArrayType<float[]> F32 = new FlatTypes.Floats();
    /** {@code double[]}, element type f64. */
    public static final ArrayType<double[]> F64 = new FlatTypes.Doubles();
    /**
     * {@link Matrix2D}, element type f64, shape {@code {rows, cols}}. Encoding: rows (u32), cols (u32), then the
     * rows * cols elements row-major, f64 little endian: 8 + 8 * rows * cols bytes. Reduce refuses matrices of
     * different shapes (H1618).
     */
    public static final ArrayType<Matrix2D> MATRIX_2D = new Matrix2DType();

    private ArrayTypes() {
    }

    /** {@code type.toBytes(value)}: a new array holding the encoding of {@code value} (H1618 when refused). */
    public static <T> byte[] toBytes(ArrayType<T> type, T value) {
        return type.toBytes(value);
    }

    /** {@code type.fromBytes(bytes)}: the value that all of {@code bytes} encode (H1618 on a cut or wrong input). */
    public static <T> T fromBytes(ArrayType<T> type, byte[] bytes) {
        return type.fromBytes(bytes);
    }

    /**
     * {@link ArrayType#reduce} for every type whose encoding is its elements after a header (if any) that is equal
     * for equal shapes: checks that shapes and element types agree and the headers are equal, combines the trailing
     * elements with {@link Combine} and decodes the result. A custom type with such a layout implements its
     * {@code reduce} as {@code return ArrayTypes.reduceElements(this, a, b, op);}.
     *
     * @throws SperliException H1618 when the shapes or element types differ, the headers differ, or the type and
     *     operation do not go together (tables section 5)
     */
    public static <T> T reduceElements(ArrayType<T> type, T a, T b, ReduceOp op) {
        long[] shapeA = type.shape(a);
        long[] shapeB = type.shape(b);
        if (!Arrays.equals(shapeA, shapeB)) {
            throw refused("shapes differ: " + Arrays.toString(shapeA) + " and " + Arrays.toString(shapeB));
        }
        ElementType elementType = type.elementType(a);
        if (type.elementType(b) != elementType) {
            throw refused("element types differ: " + elementType + " and " + type.elementType(b));
        }
        byte[] x = type.toBytes(a);
        byte[] y = type.toBytes(b);
        long elements = elements(shapeA);
        long elementBytes = elements * elementType.width();
        long header = x.length - elementBytes;
        if (elements > x.length / elementType.width() || x.length != y.length
                || !Arrays.equals(x, 0, (int) header, y, 0, (int) header)) {
            throw new SperliException(ErrorCode.H1618, "reduceElements needs [header][elements] with equal"
                    + " headers; " + type.getClass().getName() + " must fold its own way");
        }
        Combine.into(ByteBuffer.wrap(x, (int) header, (int) elementBytes), ByteBuffer.wrap(y, (int) header,
                (int) elementBytes), elementType, op);
        return type.decode(ByteBuffer.wrap(x));
    }

    /** Elements of a value of this shape; H1618 when an extent is negative or the product overflows. */
    static long elements(long[] shape) {
        long n = 1;
        for (long extent : shape) {
            if (extent < 0) {
                throw refused("extent=" + extent + " in shape, must not be negative");
            }
            try {
                n = Math.multiplyExact(n, extent);
            } catch (ArithmeticException e) {
                throw refused("shape of more than 2^63 elements");
            }
        }
        return n;
    }

    /** Refuses, before anything is written, a buffer with fewer than {@code n} bytes remaining. */
    static void requireRoom(ByteBuffer buffer, int n, String what) {
        if (buffer.remaining() < n) {
            throw refused(what + " needs " + n + " bytes, buffer has " + buffer.remaining() + " remaining");
        }
        if (buffer.isReadOnly()) {
            throw new ReadOnlyBufferException();
        }
    }

    static SperliException refused(String reason) {
        return new SperliException(ErrorCode.H1618, reason);
    }
}
