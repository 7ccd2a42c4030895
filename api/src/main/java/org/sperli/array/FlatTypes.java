package org.sperli.array;

import java.nio.ByteBuffer;
import org.sperli.ElementType;
import org.sperli.ReduceOp;
import org.sperli.collective.Combine;

/**
 * The flat array types behind {@link ArrayTypes}: one small class per Java array, each a bulk copy through a view
 * buffer (raw bits for floats) and {@link Combine}'s typed form for reduce. The classes are alike on purpose: Java's
 * generics do not reach primitive arrays, and each copy needs the view buffer of its own element type.
 */
final class FlatTypes {
    private FlatTypes() {
    }

    /** {@code byte[]}, element type bytes: only band, bor and bxor reduce it. */
    static final class Bytes extends FlatArrayType<byte[]> {
        Bytes() {
            super(ElementType.BYTES, "bytes array");
        }

        @Override
        int length(byte[] value) {
            return value.length;
        }

        @Override
        void put(ByteBuffer out, byte[] value) {
            out.put(value);
        }

        @Override
        byte[] get(ByteBuffer in, int n) {
            byte[] out = new byte[n];
            in.get(out);
            return out;
        }

        @Override
        byte[] combine(byte[] a, byte[] b, ReduceOp op) {
            return Combine.combine(a, b, ElementType.BYTES, op);
        }
    }

    /** {@code int[]} as i32, or as u32: the {@code int} with the same 32 bits. */
    static final class Ints extends FlatArrayType<int[]> {
        private final boolean unsigned;

        Ints(boolean unsigned) {
            super(unsigned ? ElementType.U32 : ElementType.I32, unsigned ? "u32 array" : "i32 array");
            this.unsigned = unsigned;
        }

        @Override
        int length(int[] value) {
            return value.length;
        }

        @Override
        void put(ByteBuffer out, int[] value) {
            out.asIntBuffer().put(value);
        }

        @Override
        int[] get(ByteBuffer in, int n) {
            int[] out = new int[n];
            in.asIntBuffer().get(out);
            return out;
        }

        @Override
        int[] combine(int[] a, int[] b, ReduceOp op) {
            int[] acc = a.clone();
            Combine.into(acc, b, op, unsigned);
            return acc;
        }
    }

    /** {@code long[]} as i64, or as u64: the {@code long} with the same 64 bits. */
    static final class Longs extends FlatArrayType<long[]> {
        private final boolean unsigned;

        Longs(boolean unsigned) {
            super(unsigned ? ElementType.U64 : ElementType.I64, unsigned ? "u64 array" : "i64 array");
            this.unsigned = unsigned;
        }

        @Override
        int length(long[] value) {
            return value.length;
        }

        @Override
        void put(ByteBuffer out, long[] value) {
            out.asLongBuffer().put(value);
        }

        @Override
        long[] get(ByteBuffer in, int n) {
            long[] out = new long[n];
            in.asLongBuffer().get(out);
            return out;
        }

        @Override
        long[] combine(long[] a, long[] b, ReduceOp op) {
            long[] acc = a.clone();
            Combine.into(acc, b, op, unsigned);
            return acc;
        }
    }

    /** {@code float[]} as f32; bulk copies keep every NaN's raw bits. */
    static final class Floats extends FlatArrayType<float[]> {
        Floats() {
            super(ElementType.F32, "f32 array");
        }

        @Override
        int length(float[] value) {
            return value.length;
        }

        @Override
        void put(ByteBuffer out, float[] value) {
            out.asFloatBuffer().put(value);
        }

        @Override
        float[] get(ByteBuffer in, int n) {
            float[] out = new float[n];
            in.asFloatBuffer().get(out);
            return out;
        }

        @Override
        float[] combine(float[] a, float[] b, ReduceOp op) {
            float[] acc = a.clone();
            Combine.into(acc, b, op);
            return acc;
        }
    }

    /** {@code double[]} as f64; bulk copies keep every NaN's raw bits. */
    static final class Doubles extends FlatArrayType<double[]> {
        Doubles() {
            super(ElementType.F64, "f64 array");
        }

        @Override
        int length(double[] value) {
            return value.length;
        }

        @Override
        void put(ByteBuffer out, double[] value) {
            out.asDoubleBuffer().put(value);
        }

        @Override
        double[] get(ByteBuffer in, int n) {
            double[] out = new double[n];
            in.asDoubleBuffer().get(out);
            return out;
        }

        @Override
        double[] combine(double[] a, double[] b, ReduceOp op) {
            double[] acc = a.clone();
            Combine.into(acc, b, op);
            return acc;
        }
    }
}
