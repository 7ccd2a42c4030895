package org.sperli.rankd.agent;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.sperli.control.ControlFrame.RankRef;
import org.sperli.control.ControlFrames;

/**
 * The agent's side of the control stream towards the launcher: frames from every rank go into one bounded queue, and
 * one writer thread writes whatever is queued and flushes only when the queue is empty, so that many ranks' output
 * costs few writes (at 128 ranks a host, one flush per line would be one SSH packet per line). A full queue makes a
 * rank's output pump wait, which makes the rank wait on its pipe: memory stays bounded by {@link #CAPACITY} frames.
 */
final class FrameOutbox implements AutoCloseable {
    /** Frames queued at most; at most 64 KiB each. */
    static final int CAPACITY = 256;
    /** How long {@link #close} waits for the queued frames to be written. */
    static final long CLOSE_WAIT_MS = 2000;
    private static final byte[] END = new byte[0];

    private final OutputStream out;
    private final BlockingQueue<byte[]> queue = new ArrayBlockingQueue<>(CAPACITY);
    private final Runnable onBroken;
    private final Thread writer;
    private volatile boolean broken;

    /** Writes to {@code out}; {@code onBroken} runs once, on the writer thread, when a write fails. */
    FrameOutbox(OutputStream out, Runnable onBroken) {
        this.out = out;
        this.onBroken = onBroken;
        this.writer = new Thread(this::writeLoop, "sperli-agent-writer");
        writer.setDaemon(true);
        writer.start();
    }

    void ready(long pid) {
        enqueue(frame(o -> ControlFrames.writeReady(o, pid)));
    }

    void started(RankRef ref, long pid) {
        enqueue(frame(o -> ControlFrames.writeStarted(o, ref.rank(), ref.incarnation(), pid)));
    }

    void output(RankRef ref, int stream, byte[] data, int len) {
        enqueue(frame(o -> ControlFrames.writeOutput(o, ref.rank(), ref.incarnation(), stream, data, 0, len)));
    }

    void exited(RankRef ref, int status) {
        enqueue(frame(o -> ControlFrames.writeExited(o, ref.rank(), ref.incarnation(), status)));
    }

    void failed(RankRef ref, String reason) {
        enqueue(frame(o -> ControlFrames.writeFailed(o, ref.rank(), ref.incarnation(), reason)));
    }

    void bye() {
        enqueue(frame(ControlFrames::writeBye));
    }

    /** Whether a write failed: the launcher no longer reads. */
    boolean broken() {
        return broken;
    }

    /** Writes what is queued (bounded by {@link #CLOSE_WAIT_MS}) and ends the writer. */
    @Override
    public void close() {
        enqueue(END);
        try {
            writer.join(CLOSE_WAIT_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void enqueue(byte[] frame) {
        if (broken) {
            return;
        }
        try {
            // Bounded: a launcher that stopped reading without closing would otherwise hold a rank's pump forever.
            while (!queue.offer(frame, 100, TimeUnit.MILLISECONDS)) {
                if (broken || !writer.isAlive()) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void writeLoop() {
        try {
            while (true) {
                byte[] frame = queue.take();
                while (frame != null) {
                    if (frame == END) {
                        out.flush();
                        return;
                    }
                    out.write(frame);
                    frame = queue.poll();
                }
                out.flush();
            }
        } catch (IOException e) {
            broken = true;
            queue.clear();
            onBroken.run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private interface Encoder {
        void writeTo(OutputStream out) throws IOException;
    }

    private static byte[] frame(Encoder encoder) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        try {
            encoder.writeTo(bytes);
        } catch (IOException e) {
            throw new IllegalStateException("a byte array stream does not fail", e);
        }
        return bytes.toByteArray();
    }
}
