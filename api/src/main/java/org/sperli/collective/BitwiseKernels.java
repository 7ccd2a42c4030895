package org.sperli.collective;

import static org.sperli.collective.LittleEndian.getLong;
import static org.sperli.collective.LittleEndian.putLong;

import org.sperli.ReduceOp;

/**
 * band, bor and bxor on bytes, for every type that allows them. A bitwise operation does not care about element
 * width or byte order, so one loop serves bytes, i32, u32, i64 and u64: eight bytes at a time, then the last 0..7
 * bytes one at a time (only bytes and 4-byte types of an odd element count have such a tail).
 */
final class BitwiseKernels {
    private BitwiseKernels() {
    }

    static ByteKernel select(ReduceOp op) {
        return switch (op) {
            case BAND -> BitwiseKernels::and;
            case BOR -> BitwiseKernels::or;
            case BXOR -> BitwiseKernels::xor;
            default -> throw new IllegalArgumentException("not a bitwise operation: " + op);
        };
    }

    private static void and(byte[] a, int ao, byte[] b, int bo, int n) {
        int whole = n & ~7;
        for (int i = 0; i < whole; i += 8) {
            putLong(a, ao + i, getLong(a, ao + i) & getLong(b, bo + i));
        }
        for (int i = whole; i < n; i++) {
            a[ao + i] &= b[bo + i];
        }
    }

    private static void or(byte[] a, int ao, byte[] b, int bo, int n) {
        int whole = n & ~7;
        for (int i = 0; i < whole; i += 8) {
            putLong(a, ao + i, getLong(a, ao + i) | getLong(b, bo + i));
        }
        for (int i = whole; i < n; i++) {
            a[ao + i] |= b[bo + i];
        }
    }

    private static void xor(byte[] a, int ao, byte[] b, int bo, int n) {
        int whole = n & ~7;
        for (int i = 0; i < whole; i += 8) {
            putLong(a, ao + i, getLong(a, ao + i) ^ getLong(b, bo + i));
        }
        for (int i = whole; i < n; i++) {
            a[ao + i] ^= b[bo + i];
        }
    }
}
