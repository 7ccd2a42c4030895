package org.sperli.jobspec;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import org.sperli.ErrorCode;
import org.sperli.SperliException;

/**
 * The line of lower-case hex digits that carries a job description, turned into its bytes.
 *
 * <p>The digit count is bounded before anything grows: a reader stops at the first digit beyond the limit, so an
 * endless line costs neither memory nor time. Buffers that held digits are zeroed when they are dropped, because the
 * line carries the rank's private key and, at rank 0, the job signing key. Refusals are H1616.
 */
final class HexLine {
    private static final int INITIAL_CAPACITY = 4096;

    private final int maxDigits;
    private byte[] out;
    private int bytes;
    private int digits;
    private int high = -1;

    private HexLine(int maxDigits, int capacity) {
        this.maxDigits = maxDigits;
        this.out = new byte[capacity];
    }

    /**
     * Reads one line from {@code in}: digits up to a line feed or the end of input (a missing final line feed is
     * accepted). Exactly the line and its line feed are consumed; a bad character or the first digit over the limit
     * ends the read at once.
     */
    static byte[] read(InputStream in, int maxDigits) throws IOException {
        HexLine line = new HexLine(maxDigits, Math.min(INITIAL_CAPACITY, maxDigits / 2));
        try {
            for (int c = in.read(); c != -1 && c != '\n'; c = in.read()) {
                line.accept(c);
            }
            return line.finish();
        } finally {
            Arrays.fill(line.out, (byte) 0);
        }
    }

    /** The bytes of a line given without its line feed; the length is judged before anything is allocated. */
    static byte[] decode(byte[] digits, int maxDigits) {
        if (digits.length > maxDigits) {
            throw refuse("line of " + digits.length + " characters, longer than the largest description ("
                    + maxDigits + " hex digits)");
        }
        HexLine line = new HexLine(maxDigits, digits.length / 2);
        try {
            if (digits.length == 0 || digits.length % 2 != 0) {
                return line.finishWith(digits.length);
            }
            for (byte c : digits) {
                line.accept(Byte.toUnsignedInt(c));
            }
            return line.finish();
        } finally {
            Arrays.fill(line.out, (byte) 0);
        }
    }

    private void accept(int c) {
        int nibble = nibble(c);
        if (nibble < 0) {
            throw refuse(c >= 'A' && c <= 'F'
                    ? "upper-case hex digit '" + (char) c + "' at position " + digits + ", the line is lower case"
                    : "character 0x" + Integer.toHexString(c) + " at position " + digits + " is not 0-9a-f");
        }
        if (digits == maxDigits) {
            throw refuse("line longer than the largest description (" + maxDigits + " hex digits)");
        }
        digits++;
        if (high < 0) {
            high = nibble;
            return;
        }
        if (bytes == out.length) {
            grow();
        }
        out[bytes++] = (byte) (high << 4 | nibble);
        high = -1;
    }

    private byte[] finish() {
        return finishWith(digits);
    }

    private byte[] finishWith(int digitCount) {
        if (digitCount == 0) {
            throw refuse("empty line");
        }
        if (digitCount % 2 != 0) {
            throw refuse("odd digit count " + digitCount + ", every byte is two hex digits");
        }
        return Arrays.copyOf(out, bytes);
    }

    private void grow() {
        // digits <= maxDigits, so bytes never pass maxDigits / 2 and the capacity stays within the limit.
        int capacity = (int) Math.min((long) out.length * 2, maxDigits / 2);
        byte[] larger = Arrays.copyOf(out, Math.max(capacity, out.length + 1));
        Arrays.fill(out, (byte) 0);
        out = larger;
    }

    private static int nibble(int c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        return -1;
    }

    private static SperliException refuse(String reason) {
        return new SperliException(ErrorCode.H1616, "description line: " + reason);
    }
}
