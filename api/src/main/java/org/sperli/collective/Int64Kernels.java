package org.sperli.collective;

import static org.sperli.collective.LittleEndian.getLong;
import static org.sperli.collective.LittleEndian.putLong;

import org.sperli.ReduceOp;

/**
 * i64 and u64 loops, one per operation: on little-endian bytes ({@link ByteKernel}s) and on {@code long[]} (the typed
 * form). Both use the same expressions and {@link ElementRules}, so they agree bit for bit. Sum, product and the
 * logical operations do not depend on signedness; min and max do. Bitwise operations on bytes are
 * {@link BitwiseKernels}, which do not care about the element width.
 */
final class Int64Kernels {
    private Int64Kernels() {
    }

    /** The byte loop for a non-bitwise operation. */
    static ByteKernel select(ReduceOp op, boolean unsigned) {
        return switch (op) {
            case SUM -> Int64Kernels::sum;
            case PROD -> Int64Kernels::prod;
            case MIN -> unsigned ? Int64Kernels::minU : Int64Kernels::min;
            case MAX -> unsigned ? Int64Kernels::maxU : Int64Kernels::max;
            case LAND -> Int64Kernels::land;
            case LOR -> Int64Kernels::lor;
            case LXOR -> Int64Kernels::lxor;
            case BAND, BOR, BXOR -> throw new IllegalArgumentException("bitwise operations are BitwiseKernels: " + op);
        };
    }

    private static void sum(byte[] a, int ao, byte[] b, int bo, int n) {
        for (int i = 0; i < n; i += 8) {
            putLong(a, ao + i, getLong(a, ao + i) + getLong(b, bo + i));
        }
    }

    private static void prod(byte[] a, int ao, byte[] b, int bo, int n) {
        for (int i = 0; i < n; i += 8) {
            putLong(a, ao + i, getLong(a, ao + i) * getLong(b, bo + i));
        }
    }

    private static void min(byte[] a, int ao, byte[] b, int bo, int n) {
        for (int i = 0; i < n; i += 8) {
            putLong(a, ao + i, Math.min(getLong(a, ao + i), getLong(b, bo + i)));
        }
    }

    private static void max(byte[] a, int ao, byte[] b, int bo, int n) {
        for (int i = 0; i < n; i += 8) {
            putLong(a, ao + i, Math.max(getLong(a, ao + i), getLong(b, bo + i)));
        }
    }

    private static void minU(byte[] a, int ao, byte[] b, int bo, int n) {
        for (int i = 0; i < n; i += 8) {
            putLong(a, ao + i, ElementRules.minU64(getLong(a, ao + i), getLong(b, bo + i)));
        }
    }

    private static void maxU(byte[] a, int ao, byte[] b, int bo, int n) {
        for (int i = 0; i < n; i += 8) {
            putLong(a, ao + i, ElementRules.maxU64(getLong(a, ao + i), getLong(b, bo + i)));
        }
    }

    private static void land(byte[] a, int ao, byte[] b, int bo, int n) {
        for (int i = 0; i < n; i += 8) {
            putLong(a, ao + i, ElementRules.land64(getLong(a, ao + i), getLong(b, bo + i)));
        }
    }

    private static void lor(byte[] a, int ao, byte[] b, int bo, int n) {
        for (int i = 0; i < n; i += 8) {
            putLong(a, ao + i, ElementRules.lor64(getLong(a, ao + i), getLong(b, bo + i)));
        }
    }

    private static void lxor(byte[] a, int ao, byte[] b, int bo, int n) {
        for (int i = 0; i < n; i += 8) {
            putLong(a, ao + i, ElementRules.lxor64(getLong(a, ao + i), getLong(b, bo + i)));
        }
    }

    /** Every operation on {@code long[]} of equal length: the typed form. */
    static void apply(long[] a, long[] b, ReduceOp op, boolean unsigned) {
        switch (op) {
            case SUM -> {
                for (int i = 0; i < a.length; i++) {
                    a[i] += b[i];
                }
            }
            case PROD -> {
                for (int i = 0; i < a.length; i++) {
                    a[i] *= b[i];
                }
            }
            case MIN -> {
                if (unsigned) {
                    for (int i = 0; i < a.length; i++) {
                        a[i] = ElementRules.minU64(a[i], b[i]);
                    }
                } else {
                    for (int i = 0; i < a.length; i++) {
                        a[i] = Math.min(a[i], b[i]);
                    }
                }
            }
            case MAX -> {
                if (unsigned) {
                    for (int i = 0; i < a.length; i++) {
                        a[i] = ElementRules.maxU64(a[i], b[i]);
                    }
                } else {
                    for (int i = 0; i < a.length; i++) {
                        a[i] = Math.max(a[i], b[i]);
                    }
                }
            }
            case LAND -> {
                for (int i = 0; i < a.length; i++) {
                    a[i] = ElementRules.land64(a[i], b[i]);
                }
            }
            case LOR -> {
                for (int i = 0; i < a.length; i++) {
                    a[i] = ElementRules.lor64(a[i], b[i]);
                }
            }
            case LXOR -> {
                for (int i = 0; i < a.length; i++) {
                    a[i] = ElementRules.lxor64(a[i], b[i]);
                }
            }
            case BAND -> {
                for (int i = 0; i < a.length; i++) {
                    a[i] &= b[i];
                }
            }
            case BOR -> {
                for (int i = 0; i < a.length; i++) {
                    a[i] |= b[i];
                }
            }
            case BXOR -> {
                for (int i = 0; i < a.length; i++) {
                    a[i] ^= b[i];
                }
            }
        }
    }
}
