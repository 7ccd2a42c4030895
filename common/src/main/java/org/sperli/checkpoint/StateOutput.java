package org.sperli.checkpoint;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.security.MessageDigest;
import java.util.Objects;

/**
 * The stream a {@link org.sperli.Checkpointable} writes its state into: bytes go to the rank file's channel through
 * one 1 MiB direct buffer and into the state's SHA-256 as they pass, so a state of any size is written and hashed
 * without a copy of it in memory. Every write goes through the staging buffer: a channel write from a large heap
 * array would make the JDK allocate (and keep) a temporary direct buffer as large as the array.
 *
 * <p>{@link #close} does nothing: the rank file's writer owns the channel and calls {@link #finish}.
 */
final class StateOutput extends OutputStream {
    static final int BUFFER_BYTES = 1 << 20;

    private final FileChannel channel;
    private final MessageDigest digest;
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER_BYTES);
    private long length;
    private boolean finished;

    StateOutput(FileChannel channel, MessageDigest digest) {
        this.channel = channel;
        this.digest = digest;
    }

    @Override
    public void write(int b) throws IOException {
        requireOpen();
        digest.update((byte) b);
        buffer.put((byte) b);
        length++;
        if (!buffer.hasRemaining()) {
            drain();
        }
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        requireOpen();
        digest.update(b, off, len);
        length += len;
        while (len > 0) {
            int n = Math.min(len, buffer.remaining());
            buffer.put(b, off, n);
            off += n;
            len -= n;
            if (!buffer.hasRemaining()) {
                drain();
            }
        }
    }

    @Override
    public void flush() throws IOException {
        requireOpen();
        drain();
    }

    @Override
    public void close() {
        // The channel belongs to the rank file's writer, which finishes the file after the state.
    }

    /** Writes what is buffered and ends the stream: later writes fail. */
    void finish() throws IOException {
        drain();
        finished = true;
    }

    /** Bytes of state written so far. */
    long length() {
        return length;
    }

    /** The state's SHA-256; call once, after {@link #finish}. */
    byte[] sha256() {
        return digest.digest();
    }

    private void drain() throws IOException {
        buffer.flip();
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
        buffer.clear();
    }

    private void requireOpen() throws IOException {
        if (finished) {
            throw new IOException("the checkpoint has taken the state already; write inside writeCheckpoint only");
        }
    }
}
