package org.sperli;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The conversions of {@link Communicator}'s {@code int[]}, {@code long[]}, {@code float[]} and {@code double[]} forms
 * between Java arrays and the wire's elements, least significant byte first (the {@link ArrayType} forms are
 * {@link ArrayTypeCollectives}').
 * A {@code null} passes through as {@code null}, so the byte form refuses it (H1618) and a non-root's null result
 * stays null. Each conversion is one bulk copy; the wire carries bytes, and Java has no view of an {@code int[]} as
 * bytes. The methods are alike on purpose, one per primitive type: generics do not reach primitive arrays.
 */
final class PrimitiveArrayBytes {
    private PrimitiveArrayBytes() {
    }

    static byte[] bytes(int[] data) {
        if (data == null) {
            return null;
        }
        byte[] out = new byte[byteLength(data.length, Integer.BYTES)];
        ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().put(data);
        return out;
    }

    static byte[] bytes(long[] data) {
        if (data == null) {
            return null;
        }
        byte[] out = new byte[byteLength(data.length, Long.BYTES)];
        ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().put(data);
        return out;
    }

    static byte[] bytes(float[] data) {
        if (data == null) {
            return null;
        }
        byte[] out = new byte[byteLength(data.length, Float.BYTES)];
        ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().put(data);
        return out;
    }

    static byte[] bytes(double[] data) {
        if (data == null) {
            return null;
        }
        byte[] out = new byte[byteLength(data.length, Double.BYTES)];
        ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().put(data);
        return out;
    }

    /**
     * Bytes of {@code elements} elements of {@code width} bytes. Data over the collective limit still gets its array so
     * that the byte form refuses it and counts the call like every other refusal; only a length no byte array can have
     * (over 2 GiB, far beyond the limit on every rank alike) is refused here, without counting the call.
     */
    private static int byteLength(int elements, int width) {
        long n = (long) elements * width;
        if (n > Integer.MAX_VALUE - 8) {
            throw new SperliException(ErrorCode.H1618, "data length=" + n + ", maximum "
                    + Communicator.MAX_COLLECTIVE_DATA);
        }
        return (int) n;
    }

    static int[] ints(byte[] data) {
        if (data == null) {
            return null;
        }
        int[] out = new int[data.length / Integer.BYTES];
        ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(out);
        return out;
    }

    static long[] longs(byte[] data) {
        if (data == null) {
            return null;
        }
        long[] out = new long[data.length / Long.BYTES];
        ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(out);
        return out;
    }

    static float[] floats(byte[] data) {
        if (data == null) {
            return null;
        }
        float[] out = new float[data.length / Float.BYTES];
        // Bulk get copies raw bits, so a NaN's payload (the canonical NaN of a reduce) is kept as it came.
        ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(out);
        return out;
    }

    static double[] doubles(byte[] data) {
        if (data == null) {
            return null;
        }
        double[] out = new double[data.length / Double.BYTES];
        ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().get(out);
        return out;
    }
}
