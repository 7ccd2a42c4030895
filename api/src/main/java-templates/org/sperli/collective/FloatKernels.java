//$ F32Kernels x=float Box=Float bits=int Bits=Int width=4 size=32 nan=0x7fc0_0000
//$ F64Kernels x=double Box=Double bits=long Bits=Long width=8 size=64 nan=0x7ff8_0000_0000_0000L
package org.sperli.collective;

import static org.sperli.collective.LittleEndian.get$Box$;
import static org.sperli.collective.LittleEndian.put$Bits$;

import org.sperli.ReduceOp;

/**
 * f$size$ loops, one per operation: on little-endian bytes ({@link ByteKernel}s) and on {@code $x$[]} (the typed
 * form), and the per-element rules both use, so that the two forms cannot disagree.
 *
 * <p>The arithmetic is {@code $x$} arithmetic, binary$size$ rounded to nearest even, never carried out in a wider
 * type. Min and max are {@link Math#min($x$, $x$)} and {@link Math#max($x$, $x$)},
 * which are exactly the rule: NaN when either operand is NaN, and -0.0 below +0.0. Every NaN result (theirs may carry
 * an operand's payload) is written as the canonical NaN: the byte loops through {@link #bitsOf}, the typed loop by
 * storing {@link #CANONICAL_NAN}, whose raw bits an array store keeps. Subnormal operands and results are kept, as
 * Java never flushes them to zero.
 *
 * <p>F32Kernels and F64Kernels are made at build time from one template, {@code FloatKernels.java} in
 * {@code src/main/java-templates}: edit that. They are two classes, not one generic one, so that each loop is
 * compiled for its own element type (see {@code src/build/ExpandTemplates.java}).
 */
final class $Class$ {
    /** The canonical quiet NaN of binary$size$: every NaN an f$size$ operation produces is written as these bits. */
    private static final $bits$ CANONICAL_NAN_BITS = $nan$;
    /** A $x$ whose raw bits are {@link #CANONICAL_NAN_BITS} (stored as is into a {@code $x$[]}). */
    private static final $x$ CANONICAL_NAN = $Box$.$bits$BitsTo$Box$(CANONICAL_NAN_BITS);

    private $Class$() {
    }

    /**
     * The byte loop for an operation. One loop per operation, alike on purpose: a loop that took the operation as an
     * object would be compiled once for all of them and make a call per element that is not inlined.
     */
    static ByteKernel select(ReduceOp op) {
        return switch (op) {
            case SUM -> $Class$::sum;
            case PROD -> $Class$::prod;
            case MIN -> $Class$::min;
            case MAX -> $Class$::max;
            default -> throw new IllegalArgumentException("not a float operation: " + op);
        };
    }

    private static void sum(byte[] a, int ao, byte[] b, int bo, int n) {
        for (int i = 0; i < n; i += $width$) {
            put$Bits$(a, ao + i, bitsOf(get$Box$(a, ao + i) + get$Box$(b, bo + i)));
        }
    }

    private static void prod(byte[] a, int ao, byte[] b, int bo, int n) {
        for (int i = 0; i < n; i += $width$) {
            put$Bits$(a, ao + i, bitsOf(get$Box$(a, ao + i) * get$Box$(b, bo + i)));
        }
    }

    private static void min(byte[] a, int ao, byte[] b, int bo, int n) {
        for (int i = 0; i < n; i += $width$) {
            put$Bits$(a, ao + i, bitsOf(Math.min(get$Box$(a, ao + i), get$Box$(b, bo + i))));
        }
    }

    private static void max(byte[] a, int ao, byte[] b, int bo, int n) {
        for (int i = 0; i < n; i += $width$) {
            put$Bits$(a, ao + i, bitsOf(Math.max(get$Box$(a, ao + i), get$Box$(b, bo + i))));
        }
    }

    /** Every float operation on {@code $x$[]} of equal length: the typed form. */
    static void apply($x$[] a, $x$[] b, ReduceOp op) {
        switch (op) {
            case SUM -> {
                for (int i = 0; i < a.length; i++) {
                    a[i] = canonical(a[i] + b[i]);
                }
            }
            case PROD -> {
                for (int i = 0; i < a.length; i++) {
                    a[i] = canonical(a[i] * b[i]);
                }
            }
            case MIN -> {
                for (int i = 0; i < a.length; i++) {
                    a[i] = canonical(Math.min(a[i], b[i]));
                }
            }
            case MAX -> {
                for (int i = 0; i < a.length; i++) {
                    a[i] = canonical(Math.max(a[i], b[i]));
                }
            }
            default -> throw new IllegalArgumentException("not a float operation: " + op);
        }
    }

    /**
     * The bits written for a result: its own bits, or the canonical NaN. This is what
     * {@link $Box$#$x$To$Bits$Bits} is specified to do, written out because the JIT compiles this form to a select
     * that runs about twice as fast in the byte loops (measured on JDK 17 and 25).
     */
    private static $bits$ bitsOf($x$ r) {
        return r != r ? CANONICAL_NAN_BITS : $Box$.$x$ToRaw$Bits$Bits(r);
    }

    /** The value stored into a {@code $x$[]}: the result, or the canonical NaN (array stores keep raw bits). */
    private static $x$ canonical($x$ r) {
        return r != r ? CANONICAL_NAN : r;
    }
}
