package org.sperli.rankd;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Objects;

/**
 * The rank's standard input, buffered so that the description line can be read a byte at a time, and never asked how
 * many bytes are available: on a pipe a channel's stream answers that with {@code IOException: Illegal seek} (JDK
 * 17), and {@link java.io.BufferedInputStream} asks whenever a read got fewer bytes than it wanted, so the first byte
 * after the line read as the launcher's end. A byte is wiped from the buffer once read: the line carries the rank's
 * private key.
 */
final class StdinBuffer extends InputStream {
    private static final int SIZE = 8192;

    private final InputStream in;
    private final byte[] buffer = new byte[SIZE];
    private int next;
    private int count;

    StdinBuffer(InputStream in) {
        this.in = in;
    }

    @Override
    public int read() throws IOException {
        if (next == count && !fill()) {
            return -1;
        }
        int b = buffer[next] & 0xff;
        buffer[next++] = 0;
        return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (len == 0) {
            return 0;
        }
        if (next == count) {
            // Nothing buffered: one read of the stream itself, which returns what there is and waits only for none.
            return in.read(b, off, len);
        }
        int n = Math.min(len, count - next);
        System.arraycopy(buffer, next, b, off, n);
        Arrays.fill(buffer, next, next + n, (byte) 0);
        next += n;
        return n;
    }

    @Override
    public void close() throws IOException {
        Arrays.fill(buffer, (byte) 0);
        next = 0;
        count = 0;
        in.close();
    }

    private boolean fill() throws IOException {
        next = 0;
        count = 0;
        int n;
        do {
            n = in.read(buffer, 0, SIZE);
        } while (n == 0);
        if (n < 0) {
            return false;
        }
        count = n;
        return true;
    }
}
