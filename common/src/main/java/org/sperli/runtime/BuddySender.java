package org.sperli.runtime;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.protocol.Limits;
import org.sperli.protocol.frame.FrameType;
import org.sperli.protocol.payload.Abort;
import org.sperli.protocol.payload.CkptData;
import org.sperli.trace.TraceKind;

/**
 * Sends one rank file to one peer as CKPT_DATA chunks of at most 1 MiB (kind 0 for the buddy copy, kind 2 for an
 * answer at resume), read from the file as it goes: at most {@link #WINDOW} chunks are in memory, each handed to TLS
 * without a copy and reused once TLS took it.
 *
 * <p>It runs on its own thread while the calling thread receives the file of its own predecessor: every rank sends to
 * its buddy and receives from its predecessor at the same time, so a rank that only sent would leave its predecessor's
 * chunks unread and, with large files, the ring would stall. A failure here ends the job (ABORT with {@code phase}
 * and the failure's code) and is thrown again by {@link #join}.
 */
final class BuddySender {
    /** Chunks in flight at once. */
    static final int WINDOW = 4;
    private static final long AWAIT_AFTER_FAILURE_MS = 5000;

    private final FrameLink frames;
    private final int dest;
    private final long epoch;
    private final int kind;
    private final int fileRank;
    private final FileChannel channel;
    private final Runnable afterFirstChunk;
    private SideStep<Void> step;

    private BuddySender(FrameLink frames, int dest, long epoch, int kind, int fileRank, FileChannel channel,
                        Runnable afterFirstChunk) {
        this.frames = frames;
        this.dest = dest;
        this.epoch = epoch;
        this.kind = kind;
        this.fileRank = fileRank;
        this.channel = channel;
        this.afterFirstChunk = afterFirstChunk;
    }

    /**
     * Opens {@code file} (the rank file of {@code fileRank}) at once, so that a rename of it after this call does not
     * matter, and starts sending it to {@code dest}. A file that cannot be opened is H1619, thrown here.
     */
    static BuddySender start(FrameLink frames, int dest, long epoch, int kind, int fileRank, Path file,
                             Runnable afterFirstChunk, Abort.Reason phase) {
        FileChannel channel;
        try {
            channel = FileChannel.open(file);
        } catch (IOException e) {
            throw new SperliException(ErrorCode.H1619, "cannot open " + file.getFileName() + " to send it to rank "
                    + dest + ": " + e, e);
        }
        BuddySender sender = new BuddySender(frames, dest, epoch, kind, fileRank, channel, afterFirstChunk);
        sender.step = SideStep.start(frames, "file" + fileRank + "-to" + dest, phase,
                "send " + file.getFileName() + " to rank " + dest, sender::sendAndClose);
        return sender;
    }

    /** Waits until the last chunk was handed to TLS; throws the failure that ended the transfer. */
    void join() {
        step.join();
    }

    /** After a failure elsewhere: waits a bounded time for the thread, which ends once the job's channels close. */
    void joinQuietly() {
        step.joinQuietly();
    }

    private Void sendAndClose() throws IOException {
        long start = frames.traceStart();
        try (channel) {
            send();
            frames.traced(TraceKind.CKPT_BUDDY_OUT, start, dest, channel.size(), epoch);
        }
        return null;
    }

    private void send() throws IOException {
        SendRequest[] pending = new SendRequest[WINDOW];
        ByteBuffer[] buffers = new ByteBuffer[WINDOW];
        try {
            long total = channel.size();
            int capacity = (int) Math.min(Limits.MAX_CHUNK, total);
            long offset = 0;
            int sent = 0;
            do {
                int slot = sent % WINDOW;
                if (pending[slot] != null) {
                    pending[slot].await();
                }
                if (buffers[slot] == null) {
                    // Direct, so that the file is read straight into it: a heap buffer would be filled by a copy
                    // from a temporary direct buffer of the JDK's.
                    buffers[slot] = ByteBuffer.allocateDirect(capacity);
                }
                int n = (int) Math.min(Limits.MAX_CHUNK, total - offset);
                ByteBuffer chunk = buffers[slot].clear().limit(n);
                for (long at = offset; chunk.hasRemaining(); ) {
                    int read = channel.read(chunk, at);
                    if (read < 0) {
                        throw new IOException("the file shrank while it was sent");
                    }
                    at += read;
                }
                chunk.flip();
                pending[slot] = frames.send(dest, FrameType.CKPT_DATA, epoch, head(offset, total, chunk), chunk);
                offset += n;
                if (++sent == 1) {
                    afterFirstChunk.run();
                }
            } while (offset < total);
            for (SendRequest p : pending) {
                if (p != null) {
                    p.await();
                }
            }
        } finally {
            for (SendRequest p : pending) {
                if (p != null) {
                    p.awaitQuietly(AWAIT_AFTER_FAILURE_MS);
                }
            }
        }
    }

    /** The 24 bytes before the chunk; the chunk itself follows as a second part of the payload, never copied. */
    private ByteBuffer head(long offset, long total, ByteBuffer chunk) {
        // The encoder's refusals, on the same values the receiver will check.
        new CkptData(kind, fileRank, offset, total, chunk).encodedLength();
        ByteBuffer b = ByteBuffer.allocate(CkptData.FIXED_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        b.put(CkptData.KIND_OFFSET, (byte) kind);
        b.putInt(CkptData.FILE_RANK_OFFSET, fileRank);
        b.putLong(CkptData.FILE_OFFSET_OFFSET, offset);
        b.putLong(CkptData.TOTAL_OFFSET, total);
        return b;
    }
}
