package org.sperli.collective;

import static org.sperli.collective.LittleEndian.getDouble;
import static org.sperli.collective.LittleEndian.putLong;

import org.sperli.ReduceOp;

/**
 * f64 loops, one per operation: on little-endian bytes ({@link ByteKernel}s) and on {@code double[]} (the typed form).
 *
 * <p>The arithmetic is {@code double} arithmetic, rounded to nearest even in binary64. Every NaN result is written as
 * the canonical NaN: the byte loops through {@link ElementRules#bitsOf(double)}, the typed loop by storing
 * {@link ElementRules#F64_CANONICAL_NAN}, whose raw bits an array store keeps. Subnormal operands and results are
 * kept, as Java never flushes them to zero.
 */
final class F64Kernels {
    private F64Kernels() {
    }

    static ByteKernel select(ReduceOp op) {
        return switch (op) {
            case SUM -> F64Kernels::sum;
            case PROD -> F64Kernels::prod;
            case MIN -> F64Kernels::min;
            case MAX -> F64Kernels::max;
            default -> throw new IllegalArgumentException("not a float operation: " + op);
        };
    }

    private static void sum(byte[] a, int ao, byte[] b, int bo, int n) {
        for (int i = 0; i < n; i += 8) {
            putLong(a, ao + i, ElementRules.bitsOf(getDouble(a, ao + i) + getDouble(b, bo + i)));
        }
    }

    private static void prod(byte[] a, int ao, byte[] b, int bo, int n) {
        for (int i = 0; i < n; i += 8) {
            putLong(a, ao + i, ElementRules.bitsOf(getDouble(a, ao + i) * getDouble(b, bo + i)));
        }
    }

    private static void min(byte[] a, int ao, byte[] b, int bo, int n) {
        for (int i = 0; i < n; i += 8) {
            putLong(a, ao + i, ElementRules.bitsOf(ElementRules.minF64(getDouble(a, ao + i), getDouble(b, bo + i))));
        }
    }

    private static void max(byte[] a, int ao, byte[] b, int bo, int n) {
        for (int i = 0; i < n; i += 8) {
            putLong(a, ao + i, ElementRules.bitsOf(ElementRules.maxF64(getDouble(a, ao + i), getDouble(b, bo + i))));
        }
    }

    /** Every float operation on {@code double[]} of equal length: the typed form. */
    static void apply(double[] a, double[] b, ReduceOp op) {
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
                    a[i] = ElementRules.canonical(ElementRules.minF64(a[i], b[i]));
                }
            }
            case MAX -> {
                for (int i = 0; i < a.length; i++) {
                    a[i] = ElementRules.canonical(ElementRules.maxF64(a[i], b[i]));
                }
            }
            default -> throw new IllegalArgumentException("not a float operation: " + op);
        }
    }
}
