package org.sperli.array;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;
import org.sperli.ArrayType;
import org.sperli.ElementType;
import org.sperli.ReduceOp;
import org.sperli.collective.Combine;

/**
 * The array type of {@link Matrix2D}: a type with a shape, which it carries in its encoding.
 *
 * <pre>
 * | off | size          | field                             |
 * |   0 | 4             | rows, u32 (at most 2147483647)    |
 * |   4 | 4             | cols, u32 (at most 2147483647)    |
 * |   8 | 8 * rows*cols | elements, f64, row-major          |
 * </pre>
 *
 * <p>Decode checks in this order, before it allocates: at least the 8 header bytes; rows and cols each at most
 * 2147483647; then {@code rows * cols} against the bytes that follow, in overflow-safe arithmetic, so a header that
 * claims more elements than there are bytes is refused as cut without allocating; fewer elements than bytes is
 * refused as trailing bytes. Reduce is element by element with {@link Combine} and refuses matrices of different
 * shapes, since row-major elements of a 2x3 and a 3x2 would otherwise fold without complaint.
 */
final class Matrix2DType implements ArrayType<Matrix2D> {
    static final int ROWS_OFFSET = 0;
    static final int COLS_OFFSET = ROWS_OFFSET + Integer.BYTES;
    static final int ELEMENTS_OFFSET = COLS_OFFSET + Integer.BYTES;
    /** The header before the elements: 8 bytes. */
    static final int HEADER_LENGTH = ELEMENTS_OFFSET;

    private static final long MAX_EXTENT = Integer.MAX_VALUE;

    @Override
    public int encodedLength(Matrix2D value) {
        Objects.requireNonNull(value, "value");
        long n = HEADER_LENGTH + (long) value.elements().length * Double.BYTES;
        if (n > Integer.MAX_VALUE) {
            throw ArrayTypes.refused("matrix " + value.shapeText() + " is " + n + " bytes, more than a buffer holds");
        }
        return (int) n;
    }

    @Override
    public int encode(Matrix2D value, ByteBuffer buffer) {
        int n = encodedLength(value);
        ArrayTypes.requireRoom(buffer, n, "matrix");
        ByteBuffer out = buffer.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        int start = out.position();
        out.putInt(start + ROWS_OFFSET, value.rows());
        out.putInt(start + COLS_OFFSET, value.cols());
        out.position(start + ELEMENTS_OFFSET);
        out.asDoubleBuffer().put(value.elements());
        buffer.position(start + n);
        return n;
    }

    @Override
    public Matrix2D decode(ByteBuffer bytes) {
        ByteBuffer in = bytes.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        int start = in.position();
        int remaining = in.remaining();
        if (remaining < HEADER_LENGTH) {
            throw ArrayTypes.refused("matrix cut: " + remaining + " bytes, header needs " + HEADER_LENGTH);
        }
        long rows = Integer.toUnsignedLong(in.getInt(start + ROWS_OFFSET));
        long cols = Integer.toUnsignedLong(in.getInt(start + COLS_OFFSET));
        if (rows > MAX_EXTENT || cols > MAX_EXTENT) {
            throw ArrayTypes.refused("matrix rows=" + rows + ", cols=" + cols + ", maximum " + MAX_EXTENT + " each");
        }
        // rows and cols are below 2^31, so their product is below 2^62 and does not overflow a long.
        long elements = rows * cols;
        long available = (remaining - HEADER_LENGTH) / Double.BYTES;
        if (elements > available) {
            throw ArrayTypes.refused("matrix cut: " + rows + "x" + cols + " needs " + elements * Double.BYTES
                    + " element bytes, " + (remaining - HEADER_LENGTH) + " follow the header");
        }
        long elementBytes = elements * Double.BYTES;
        if (elementBytes != remaining - HEADER_LENGTH) {
            throw ArrayTypes.refused("matrix " + rows + "x" + cols + " needs " + elementBytes + " element bytes, "
                    + (remaining - HEADER_LENGTH) + " follow the header");
        }
        double[] data = new double[(int) elements];
        in.position(start + ELEMENTS_OFFSET);
        in.asDoubleBuffer().get(data);
        bytes.position(bytes.limit());
        return new Matrix2D((int) rows, (int) cols, data);
    }

    @Override
    public ElementType elementType(Matrix2D value) {
        return ElementType.F64;
    }

    @Override
    public long[] shape(Matrix2D value) {
        return new long[] {value.rows(), value.cols()};
    }

    /**
     * The hook for a type with a shape: shapes must agree (H1618 naming both), then f64 {@link Combine} element by
     * element into a new matrix.
     */
    @Override
    public Matrix2D reduce(Matrix2D a, Matrix2D b, ReduceOp op) {
        if (a.rows() != b.rows() || a.cols() != b.cols()) {
            throw ArrayTypes.refused("matrix shapes differ: " + a.shapeText() + " and " + b.shapeText());
        }
        double[] acc = a.elements().clone();
        Combine.into(acc, b.elements(), op);
        return new Matrix2D(a.rows(), a.cols(), acc);
    }

    @Override
    public String toString() {
        return "f64 matrix";
    }
}
