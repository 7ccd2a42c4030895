package org.sperli.collective;

/**
 * One tight loop for one (type, operation) pair over little-endian elements: {@code acc[accOffset..+length) =
 * acc op b[bOffset..+length)}, element by element, {@code acc} the left operand. {@code length} is a whole number of
 * elements and both ranges lie inside their arrays. Chosen once per call by {@link Combine}.
 */
@FunctionalInterface
interface ByteKernel {
    void apply(byte[] acc, int accOffset, byte[] b, int bOffset, int length);
}
