package org.sperli.collective;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Little-endian element access to a {@code byte[]} at a byte offset, through {@code byteArrayViewVarHandle}s.
 *
 * <p>Every kernel reads and writes through these, never through {@code ByteBuffer} accessors: a loop over
 * {@code ByteBuffer.getLong} is compiled for the buffer classes it has seen, and once it has seen both heap and direct
 * buffers it runs several times slower for both. An array access has no receiver class to go wrong.
 */
final class LittleEndian {
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private LittleEndian() {
    }

    static int getInt(byte[] array, int offset) {
        return (int) INT.get(array, offset);
    }

    static void putInt(byte[] array, int offset, int value) {
        INT.set(array, offset, value);
    }

    static long getLong(byte[] array, int offset) {
        return (long) LONG.get(array, offset);
    }

    static void putLong(byte[] array, int offset, long value) {
        LONG.set(array, offset, value);
    }

    static float getFloat(byte[] array, int offset) {
        return Float.intBitsToFloat(getInt(array, offset));
    }

    static double getDouble(byte[] array, int offset) {
        return Double.longBitsToDouble(getLong(array, offset));
    }
}
