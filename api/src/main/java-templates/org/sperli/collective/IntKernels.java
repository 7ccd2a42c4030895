//$ Int32Kernels x=int Box=Integer Bits=Int width=4 size=32
//$ Int64Kernels x=long Box=Long Bits=Long width=8 size=64
package org.sperli.collective;

import static org.sperli.collective.LittleEndian.get$Bits$;
import static org.sperli.collective.LittleEndian.put$Bits$;

import org.sperli.ReduceOp;

/**
 * i$size$ and u$size$ loops, one per operation: on little-endian bytes ({@link ByteKernel}s) and on {@code $x$[]} (the
 * typed form), and the per-element rules both use, so that the two forms agree bit for bit. Sum and product wrap
 * modulo 2^$size$ as Java's {@code $x$} operators do, and they and the logical operations do not depend on
 * signedness; min and max do. Bitwise operations on bytes are {@link BitwiseKernels}, which do not care about the
 * element width.
 *
 * <p>Int32Kernels and Int64Kernels are made at build time from one template, {@code IntKernels.java} in
 * {@code src/main/java-templates}: edit that. They are two classes, not one generic one, so that each loop is
 * compiled for its own element type (see {@code src/build/ExpandTemplates.java}).
 */
final class $Class$ {
    private $Class$() {
    }

    /**
     * The byte loop for a non-bitwise operation. One loop per operation, alike on purpose: a loop that took the
     * operation as an object would be compiled once for all of them and make a call per element that is not inlined.
     */
    static ByteKernel select(ReduceOp op, boolean unsigned) {
        return switch (op) {
            case SUM -> $Class$::sum;
            case PROD -> $Class$::prod;
            case MIN -> unsigned ? $Class$::minU : $Class$::min;
            case MAX -> unsigned ? $Class$::maxU : $Class$::max;
            case LAND -> $Class$::land;
            case LOR -> $Class$::lor;
            case LXOR -> $Class$::lxor;
            case BAND, BOR, BXOR -> throw new IllegalArgumentException("bitwise operations are BitwiseKernels: " + op);
        };
    }

    private static void sum(byte[] a, int ao, byte[] b, int bo, int n) {
        for (int i = 0; i < n; i += $width$) {
            put$Bits$(a, ao + i, get$Bits$(a, ao + i) + get$Bits$(b, bo + i));
        }
    }

    private static void prod(byte[] a, int ao, byte[] b, int bo, int n) {
        for (int i = 0; i < n; i += $width$) {
            put$Bits$(a, ao + i, get$Bits$(a, ao + i) * get$Bits$(b, bo + i));
        }
    }

    private static void min(byte[] a, int ao, byte[] b, int bo, int n) {
        for (int i = 0; i < n; i += $width$) {
            put$Bits$(a, ao + i, Math.min(get$Bits$(a, ao + i), get$Bits$(b, bo + i)));
        }
    }

    private static void max(byte[] a, int ao, byte[] b, int bo, int n) {
        for (int i = 0; i < n; i += $width$) {
            put$Bits$(a, ao + i, Math.max(get$Bits$(a, ao + i), get$Bits$(b, bo + i)));
        }
    }

    private static void minU(byte[] a, int ao, byte[] b, int bo, int n) {
        for (int i = 0; i < n; i += $width$) {
            put$Bits$(a, ao + i, minUnsigned(get$Bits$(a, ao + i), get$Bits$(b, bo + i)));
        }
    }

    private static void maxU(byte[] a, int ao, byte[] b, int bo, int n) {
        for (int i = 0; i < n; i += $width$) {
            put$Bits$(a, ao + i, maxUnsigned(get$Bits$(a, ao + i), get$Bits$(b, bo + i)));
        }
    }

    private static void land(byte[] a, int ao, byte[] b, int bo, int n) {
        for (int i = 0; i < n; i += $width$) {
            put$Bits$(a, ao + i, logicalAnd(get$Bits$(a, ao + i), get$Bits$(b, bo + i)));
        }
    }

    private static void lor(byte[] a, int ao, byte[] b, int bo, int n) {
        for (int i = 0; i < n; i += $width$) {
            put$Bits$(a, ao + i, logicalOr(get$Bits$(a, ao + i), get$Bits$(b, bo + i)));
        }
    }

    private static void lxor(byte[] a, int ao, byte[] b, int bo, int n) {
        for (int i = 0; i < n; i += $width$) {
            put$Bits$(a, ao + i, logicalXor(get$Bits$(a, ao + i), get$Bits$(b, bo + i)));
        }
    }

    /** Every operation on {@code $x$[]} of equal length: the typed form. */
    static void apply($x$[] a, $x$[] b, ReduceOp op, boolean unsigned) {
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
                        a[i] = minUnsigned(a[i], b[i]);
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
                        a[i] = maxUnsigned(a[i], b[i]);
                    }
                } else {
                    for (int i = 0; i < a.length; i++) {
                        a[i] = Math.max(a[i], b[i]);
                    }
                }
            }
            case LAND -> {
                for (int i = 0; i < a.length; i++) {
                    a[i] = logicalAnd(a[i], b[i]);
                }
            }
            case LOR -> {
                for (int i = 0; i < a.length; i++) {
                    a[i] = logicalOr(a[i], b[i]);
                }
            }
            case LXOR -> {
                for (int i = 0; i < a.length; i++) {
                    a[i] = logicalXor(a[i], b[i]);
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

    /** u$size$ min: unsigned order. */
    private static $x$ minUnsigned($x$ a, $x$ b) {
        return $Box$.compareUnsigned(a, b) <= 0 ? a : b;
    }

    /** u$size$ max: unsigned order. */
    private static $x$ maxUnsigned($x$ a, $x$ b) {
        return $Box$.compareUnsigned(a, b) >= 0 ? a : b;
    }

    /** land: 1 if both are nonzero, else 0, in the element width. */
    private static $x$ logicalAnd($x$ a, $x$ b) {
        return a != 0 & b != 0 ? 1 : 0;
    }

    /** lor: 1 if either is nonzero, else 0. */
    private static $x$ logicalOr($x$ a, $x$ b) {
        return (a | b) != 0 ? 1 : 0;
    }

    /** lxor: 1 if exactly one is nonzero, else 0. */
    private static $x$ logicalXor($x$ a, $x$ b) {
        return a != 0 ^ b != 0 ? 1 : 0;
    }
}
