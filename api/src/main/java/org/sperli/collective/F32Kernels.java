package org.sperli.collective;

import static org.sperli.collective.LittleEndian.getFloat;
import static org.sperli.collective.LittleEndian.putInt;

import org.sperli.ReduceOp;

/**
 * f32 loops, one per operation: on little-endian bytes ({@link ByteKernel}s) and on {@code float[]} (the typed form).
 *
 * <p>The arithmetic is {@code float} arithmetic, rounded to nearest even in binary32, never widened to
 * {@code double} and stored. Every NaN result is written as the canonical NaN: the byte loops through
 * {@link ElementRules#bitsOf(float)}, the typed loop by storing {@link ElementRules#F32_CANONICAL_NAN}, whose raw bits
 * an array store keeps. Subnormal operands and results are kept, as Java never flushes them to zero.
 */
final class F32Kernels {
    private F32Kernels() {
    }

    static ByteKernel select(ReduceOp op) {
        return switch (op) {
            case SUM -> F32Kernels::sum;
            case PROD -> F32Kernels::prod;
            case MIN -> F32Kernels::min;
            case MAX -> F32Kernels::max;
            default -> throw new IllegalArgumentException("not a float operation: " + op);
        };
    }

    private static void sum(byte[] a, int ao, byte[] b, int bo, int n) {
        for (int i = 0; i < n; i += 4) {
            putInt(a, ao + i, ElementRules.bitsOf(getFloat(a, ao + i) + getFloat(b, bo + i)));
        }
    }

    private static void prod(byte[] a, int ao, byte[] b, int bo, int n) {
        for (int i = 0; i < n; i += 4) {
            putInt(a, ao + i, ElementRules.bitsOf(getFloat(a, ao + i) * getFloat(b, bo + i)));
        }
    }

    private static void min(byte[] a, int ao, byte[] b, int bo, int n) {
        for (int i = 0; i < n; i += 4) {
            putInt(a, ao + i, ElementRules.bitsOf(ElementRules.minF32(getFloat(a, ao + i), getFloat(b, bo + i))));
        }
    }

    private static void max(byte[] a, int ao, byte[] b, int bo, int n) {
        for (int i = 0; i < n; i += 4) {
            putInt(a, ao + i, ElementRules.bitsOf(ElementRules.maxF32(getFloat(a, ao + i), getFloat(b, bo + i))));
        }
    }

    /** Every float operation on {@code float[]} of equal length: the typed form. */
    static void apply(float[] a, float[] b, ReduceOp op) {
        switch (op) {
            case SUM -> {
                for (int i = 0; i < a.length; i++) {
                    a[i] = ElementRules.canonical(a[i] + b[i]);
                }
            }
            case PROD -> {
                for (int i = 0; i < a.length; i++) {
                    a[i] = ElementRules.canonical(a[i] * b[i]);
                }
            }
            case MIN -> {
                for (int i = 0; i < a.length; i++) {
                    a[i] = ElementRules.canonical(ElementRules.minF32(a[i], b[i]));
                }
            }
            case MAX -> {
                for (int i = 0; i < a.length; i++) {
                    a[i] = ElementRules.canonical(ElementRules.maxF32(a[i], b[i]));
                }
            }
            default -> throw new IllegalArgumentException("not a float operation: " + op);
        }
    }
}
