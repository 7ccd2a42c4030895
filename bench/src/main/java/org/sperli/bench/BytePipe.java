package org.sperli.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * An in-memory byte stream from any number of writing threads to one reader, unbounded (a stand-in agent's output is
 * the launcher's to drain, as a pipe's would be). {@link java.io.PipedInputStream} will not do: it fails once a thread
 * that wrote has ended, and the launcher writes from whichever thread starts a rank.
 */
final class BytePipe {
    private byte[] buffer = new byte[8192];
    private int head;
    private int tail;
    private boolean closed;

    private final InputStream in = new InputStream() {
        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            return take(b, off, len);
        }
    };

    private final OutputStream out = new OutputStream() {
        @Override
        public void write(int b) throws IOException {
            put(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            put(b, off, len);
        }

        @Override
        public void close() {
            BytePipe.this.close();
        }
    };

    InputStream in() {
        return in;
    }

    OutputStream out() {
        return out;
    }

    synchronized void close() {
        closed = true;
        notifyAll();
    }

    private synchronized void put(byte[] b, int off, int len) throws IOException {
        if (closed) {
            throw new IOException("pipe closed");
        }
        if (tail + len > buffer.length) {
            int live = tail - head;
            byte[] next = live + len > buffer.length / 2 ? new byte[Math.max(2 * buffer.length, live + len)] : buffer;
            System.arraycopy(buffer, head, next, 0, live);
            buffer = next;
            head = 0;
            tail = live;
        }
        System.arraycopy(b, off, buffer, tail, len);
        tail += len;
        notifyAll();
    }

    private synchronized int take(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        while (head == tail && !closed) {
            try {
                wait();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted");
            }
        }
        if (head == tail) {
            return -1;
        }
        int n = Math.min(len, tail - head);
        System.arraycopy(buffer, head, b, off, n);
        head += n;
        if (head == tail) {
            head = 0;
            tail = 0;
        }
        return n;
    }
}
