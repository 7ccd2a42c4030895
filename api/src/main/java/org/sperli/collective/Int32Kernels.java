package org.sperli.collective;

import static org.sperli.collective.LittleEndian.getInt;
import static org.sperli.collective.LittleEndian.putInt;

import org.sperli.ReduceOp;

/**
 * i32 and u32 loops, one per operation: on little-endian bytes ({@link ByteKernel}s) and on {@code int[]} (the typed
 * form). Both use the same expressions and {@link ElementRules}, so they agree bit for bit. Sum, product and the
 * logical operations do not depend on signedness; min and max do. Bitwise operations on bytes are
 * {@link BitwiseKernels}, which do not care about the element width.
 */
final class Int32Kernels {
    private Int32Kernels() {
    }

    /** The byte loop for a non-bitwise operation. */
    static ByteKernel select(ReduceOp op, boolean unsigned) {
        return switch (op) {
            case SUM -> Int32Kernels::sum;
            case PROD -> Int32Kernels::prod;
            case MIN -> unsigned ? Int32Kernels::minU : Int32Kernels::min;
            case MAX -> unsigned ? Int32Kernels::maxU : Int32Kernels::max;
            case LAND -> Int32Kernels::land;
            case LOR -> Int32Kernels::lor;
            case LXOR -> Int32Kernels::lxor;
            case BAND, BOR, BXOR -> throw new IllegalArgumentException("bitwise operations are BitwiseKernels: " + op);
        };
    }

    private static void sum(byte[] a, int ao, byte[] b, int bo, int n) {
        for (int i = 0; i < n; i += 4) {
            putInt(a, ao + i, getInt(a, ao + i) + getInt(b, bo + i));
        }
    }

    private static void prod(byte[] a, int ao, byte[] b, int bo, int n) {
        for (int i = 0; i < n; i += 4) {
            putInt(a, ao + i, getInt(a, ao + i) * getInt(b, bo + i));
        }
    }

    private static void min(byte[] a, int ao, byte[] b, int bo, int n) {
        for (int i = 0; i < n; i += 4) {
            putInt(a, ao + i, Math.min(getInt(a, ao + i), getInt(b, bo + i)));
        }
    }

    private static void max(byte[] a, int ao, byte[] b, int bo, int n) {
        for (int i = 0; i < n; i += 4) {
            putInt(a, ao + i, Math.max(getInt(a, ao + i), getInt(b, bo + i)));
        }
    }

    private static void minU(byte[] a, int ao, byte[] b, int bo, int n) {
        for (int i = 0; i < n; i += 4) {
            putInt(a, ao + i, ElementRules.minU32(getInt(a, ao + i), getInt(b, bo + i)));
        }
    }

    private static void maxU(byte[] a, int ao, byte[] b, int bo, int n) {
        for (int i = 0; i < n; i += 4) {
            putInt(a, ao + i, ElementRules.maxU32(getInt(a, ao + i), getInt(b, bo + i)));
        }
    }

    private static void land(byte[] a, int ao, byte[] b, int bo, int n) {
        for (int i = 0; i < n; i += 4) {
            putInt(a, ao + i, ElementRules.land32(getInt(a, ao + i), getInt(b, bo + i)));
        }
    }

    private static void lor(byte[] a, int ao, byte[] b, int bo, int n) {
        for (int i = 0; i < n; i += 4) {
            putInt(a, ao + i, ElementRules.lor32(getInt(a, ao + i), getInt(b, bo + i)));
        }
    }

    private static void lxor(byte[] a, int ao, byte[] b, int bo, int n) {
        for (int i = 0; i < n; i += 4) {
            putInt(a, ao + i, ElementRules.lxor32(getInt(a, ao + i), getInt(b, bo + i)));
        }
    }

    /** Every operation on {@code int[]} of equal length: the typed form. */
    static void apply(int[] a, int[] b, ReduceOp op, boolean unsigned) {
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
                        a[i] = ElementRules.minU32(a[i], b[i]);
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
                        a[i] = ElementRules.maxU32(a[i], b[i]);
                    }
                } else {
                    for (int i = 0; i < a.length; i++) {
                        a[i] = Math.max(a[i], b[i]);
                    }
                }
            }
            case LAND -> {
                for (int i = 0; i < a.length; i++) {
                    a[i] = ElementRules.land32(a[i], b[i]);
                }
            }
            case LOR -> {
                for (int i = 0; i < a.length; i++) {
                    a[i] = ElementRules.lor32(a[i], b[i]);
                }
            }
            case LXOR -> {
                for (int i = 0; i < a.length; i++) {
                    a[i] = ElementRules.lxor32(a[i], b[i]);
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
