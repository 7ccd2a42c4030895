package org.sperli.array;

import java.util.Arrays;

/**
 * An immutable row-major matrix of {@code double}s: the example of a value with a shape. Its array type is
 * {@link ArrayTypes#MATRIX_2D}, which encodes it as rows and cols (u32 each) and then the elements; see there.
 *
 * <p>Element (r, c) is {@code rowMajor[r * cols + c]}. Equality compares the shape and every element as
 * {@link Double#equals} does: a NaN equals a NaN, and -0.0 differs from +0.0.
 */
public final class Matrix2D {
    private final int rows;
    private final int cols;
    private final double[] data;

    /** Takes {@code data} without a copy: for this package, which never hands it out or changes it afterwards. */
    Matrix2D(int rows, int cols, double[] data) {
        this.rows = rows;
        this.cols = cols;
        this.data = data;
    }

    /**
     * A matrix of {@code rows} x {@code cols} with a copy of {@code rowMajor}.
     *
     * @throws org.sperli.SperliException H1618 for a negative extent or {@code rowMajor.length != rows * cols}
     */
    public static Matrix2D of(int rows, int cols, double... rowMajor) {
        if (rows < 0 || cols < 0) {
            throw ArrayTypes.refused("matrix rows=" + rows + ", cols=" + cols + ", must not be negative");
        }
        if (rowMajor.length != (long) rows * cols) {
            throw ArrayTypes.refused("matrix " + rows + "x" + cols + " needs " + (long) rows * cols
                    + " elements, got " + rowMajor.length);
        }
        return new Matrix2D(rows, cols, rowMajor.clone());
    }

    public int rows() {
        return rows;
    }

    public int cols() {
        return cols;
    }

    /** Element (row, col). */
    public double get(int row, int col) {
        if (row < 0 || row >= rows || col < 0 || col >= cols) {
            throw new IndexOutOfBoundsException("(" + row + ", " + col + ") outside " + rows + "x" + cols);
        }
        return data[row * cols + col];
    }

    /** A copy of the elements, row-major. */
    public double[] toArray() {
        return data.clone();
    }

    /** The elements themselves, for this package's encoder and reduce; never changed or handed out. */
    double[] elements() {
        return data;
    }

    /** "2x3", as reduce's refusals name shapes. */
    String shapeText() {
        return rows + "x" + cols;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Matrix2D m && rows == m.rows && cols == m.cols && Arrays.equals(data, m.data);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * rows + cols) + Arrays.hashCode(data);
    }

    @Override
    public String toString() {
        return "Matrix2D " + shapeText() + " " + Arrays.toString(data);
    }
}
