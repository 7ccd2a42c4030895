package org.sperli.runtime;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.checkpoint.CommitFile;
import org.sperli.checkpoint.IncomingRankFile;
import org.sperli.protocol.frame.FrameHeader;
import org.sperli.protocol.frame.FrameType;
import org.sperli.protocol.payload.Abort;
import org.sperli.protocol.payload.ChunkSequence;
import org.sperli.protocol.payload.CkptAck;
import org.sperli.protocol.payload.CkptData;
import org.sperli.protocol.payload.Resume;
import org.sperli.transport.Frame;

/**
 * The CKPT_* and RESUME frames of one rank, for {@link CheckpointDriver} and {@link ResumeDriver}: typed waits on the
 * checkpoint queue (a frame of another type or epoch than the step expects is H1610), small sends that return once TLS
 * took them, files received in chunks, and how a failure of either procedure ends the job.
 */
final class CkptLink {
    /** Any header epoch. */
    static final long ANY_EPOCH = -1;

    private final FrameLink frames;

    CkptLink(FrameLink frames) {
        this.frames = frames;
    }

    /** A decoded RESUME frame, its COMMIT copied out of the frame's buffer. */
    record ResumeMessage(long epoch, long status, byte[] commitOrNull) {
    }

    /**
     * Waits for the next CKPT or RESUME frame from {@code peer}; it must be of {@code type} and, unless
     * {@code epoch} is {@link #ANY_EPOCH}, carry {@code epoch} in its header. The caller releases it.
     */
    Frame await(int peer, FrameType type, long epoch) {
        Duration limit = waitLimit();
        Frame frame = frames.awaitCheckpoint(peer, limit.toNanos());
        if (frame == null) {
            // Heartbeats keep a rank alive whose program never takes part: without this bound its peers would
            // wait for ever (protocol 9.4 and 9.7).
            throw new SperliException(ErrorCode.H1613, "rank " + peer + " sent no " + type
                    + (epoch == ANY_EPOCH ? "" : " of epoch " + epoch) + " within " + limit.toSeconds()
                    + " s, the checkpoint wait limit; is its program in another call?");
        }
        FrameHeader h = frame.header();
        if (h.frameType() != type || epoch != ANY_EPOCH && h.epoch() != epoch) {
            frame.release();
            throw new SperliException(ErrorCode.H1610, "rank " + peer + " sent " + h.frameType() + " of epoch "
                    + h.epoch() + " where " + type + (epoch == ANY_EPOCH ? "" : " of epoch " + epoch)
                    + " was expected");
        }
        return frame;
    }

    /**
     * How long one wait for a peer's next frame may last: the settings' limit at rank 0, twice that elsewhere. Rank 0
     * hears from every rank in both procedures, so it is the one that judges a rank that never came, and the others
     * hear its verdict (one code on every rank) instead of each deciding one of its own.
     */
    private Duration waitLimit() {
        Duration limit = frames.config().checkpoints().waitLimit();
        return frames.rank() == 0 ? limit : limit.multipliedBy(2);
    }

    /** The SHA-256 a CKPT_ACK of {@code epoch} from {@code peer} carries. */
    byte[] awaitAck(int peer, long epoch) {
        return awaitRead(peer, FrameType.CKPT_ACK, epoch, frame -> CkptAck.read(frame.payload().nioBuffer()).sha256());
    }

    /** The bytes of a CKPT_COMMIT of {@code epoch} (its length was checked with the frame header). */
    byte[] awaitCommit(int peer, long epoch) {
        return awaitRead(peer, FrameType.CKPT_COMMIT, epoch, frame -> {
            byte[] bytes = new byte[frame.payload().readableBytes()];
            frame.payload().getBytes(frame.payload().readerIndex(), bytes);
            return bytes;
        });
    }

    /** A CKPT_DATA without a chunk (kinds 1, 3, 4) of {@code epoch} from {@code peer}. */
    CkptData awaitControl(int peer, long epoch) {
        return awaitRead(peer, FrameType.CKPT_DATA, epoch, frame -> {
            CkptData data = CkptData.read(frame.payload().nioBuffer());
            if (data.carriesChunk()) {
                throw new SperliException(ErrorCode.H1610, "rank " + peer + " sent CKPT_DATA kind " + data.kind()
                        + " where a request (1) or needs-nothing (4) was expected");
            }
            return data;
        });
    }

    /** A RESUME from {@code peer}; {@code epoch} as in {@link #await}. */
    ResumeMessage awaitResume(int peer, long epoch) {
        return awaitRead(peer, FrameType.RESUME, epoch, frame -> {
            Resume resume = Resume.read(frame.payload().nioBuffer(), frames.size());
            byte[] commit = null;
            if (resume.hasCommit()) {
                ByteBuffer c = resume.commit();
                commit = new byte[c.remaining()];
                c.get(commit);
            }
            return new ResumeMessage(frame.header().epoch(), resume.status(), commit);
        });
    }

    /** What {@code read} takes out of the next frame as in {@link #await}; the frame is released either way. */
    private <T> T awaitRead(int peer, FrameType type, long epoch, Function<Frame, T> read) {
        Frame frame = await(peer, type, epoch);
        try {
            return read.apply(frame);
        } finally {
            frame.release();
        }
    }

    /**
     * Receives one file sent in chunks of {@code kind} about {@code fileRank} from {@code peer} into {@code into}, and
     * finishes it against {@code commitOrNull}; returns the file's SHA-256. With {@code noCopyAllowed} a first frame
     * of kind 3 ends the transfer and returns {@code null}. A frame out of order is H1610 at once; a file that is not
     * the one expected is refused only after its last chunk, so that the sender is never left writing into a queue
     * nobody reads.
     */
    byte[] receiveFile(int peer, long epoch, int kind, int fileRank, IncomingRankFile into, CommitFile commitOrNull,
                       boolean noCopyAllowed) {
        ChunkSequence sequence = new ChunkSequence();
        SperliException refusal = null;
        do {
            Frame frame = await(peer, FrameType.CKPT_DATA, epoch);
            try {
                CkptData data = CkptData.read(frame.payload().nioBuffer());
                if (noCopyAllowed && !sequence.started() && data.kind() == CkptData.KIND_NO_COPY
                        && data.fileRank() == fileRank) {
                    return null;
                }
                if (data.kind() != kind || data.fileRank() != fileRank) {
                    throw new SperliException(ErrorCode.H1610, "rank " + peer + " sent CKPT_DATA kind " + data.kind()
                            + " of file rank " + data.fileRank() + ", expected kind " + kind + " of file rank "
                            + fileRank);
                }
                sequence.accept(data);
                if (refusal == null) {
                    try {
                        into.accept(data.chunk(), data.total());
                    } catch (SperliException e) {
                        refusal = e;
                    }
                }
            } finally {
                frame.release();
            }
        } while (!sequence.complete());
        if (refusal != null) {
            throw refusal;
        }
        return into.finish(commitOrNull);
    }

    /** Sends a small payload and returns once TLS took it. */
    void send(int dest, FrameType type, long epoch, byte[] payload) {
        frames.send(dest, type, 0, epoch, ByteBuffer.wrap(payload)).await();
    }

    /** Sends the same small payload to every other rank, all at once, and waits until TLS took each. */
    void sendToOthers(FrameType type, long epoch, byte[] payload) {
        List<SendRequest> sends = new ArrayList<>();
        for (int r = 0; r < frames.size(); r++) {
            if (r != frames.rank()) {
                sends.add(frames.send(r, type, 0, epoch, ByteBuffer.wrap(payload)));
            }
        }
        for (SendRequest s : sends) {
            s.await();
        }
    }

    static byte[] resume(int status, byte[] commitOrNull) {
        return new Resume(status, commitOrNull == null ? null : ByteBuffer.wrap(commitOrNull)).toBytes();
    }

    /**
     * Ends the job for a failure of this rank's checkpoint ({@code phase} 5) or resume (6): ABORT with the failure's
     * code (reason 2 for a refused frame, H1610), unless the job already failed. Returns what the call throws.
     */
    SperliException fail(Abort.Reason phase, SperliException failure) {
        if (frames.failure() == null) {
            Abort.Reason reason = failure.code() == ErrorCode.H1610 ? Abort.Reason.REFUSED : phase;
            frames.abort(reason, failure.code(), "rank " + frames.rank() + ": " + failure.reason(), failure);
        }
        return jobFailure(phase, failure);
    }

    /**
     * The job's failure as {@code phase}'s call reports it, or {@code fallback} while the job runs. An ABORT that
     * carries the verdict of the whole job during resume, reason 6 with a checkpoint code (rank 0's choice failed for
     * the job), is reported with its own code instead of H1612, so that every rank gives the same code. (Reason 5 with
     * code 1624 is this rank's failure as received: see {@code InboundFrames.abortedBy}.)
     */
    SperliException jobFailure(Abort.Reason phase, SperliException fallback) {
        SperliException failure = frames.failure();
        if (failure == null) {
            return fallback;
        }
        Abort received = frames.receivedAbort();
        if (failure.code() == ErrorCode.H1612 && received != null) {
            ErrorCode carried = ErrorCode.ofNumber((int) Math.min(Integer.MAX_VALUE, received.code()));
            boolean resumeVerdict = phase == Abort.Reason.RESUME_FAILED
                    && received.reason() == Abort.Reason.RESUME_FAILED.code() && carried != null
                    && carried.number() >= ErrorCode.H1619.number() && carried.number() <= ErrorCode.H1624.number();
            if (resumeVerdict) {
                return new SperliException(carried, failure.reason(), failure);
            }
        }
        return new SperliException(failure.code(), failure.reason(), failure);
    }

    /** Any exception of the procedures as a SperliException; what is not one yet is a file fault, H1619. */
    static SperliException asSperli(RuntimeException e) {
        return e instanceof SperliException s ? s : new SperliException(ErrorCode.H1619, e.toString(), e);
    }
}
