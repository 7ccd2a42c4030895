package org.sperli.runtime;

import java.util.Optional;
import org.sperli.Checkpointable;
import org.sperli.ErrorCode;
import org.sperli.Restored;
import org.sperli.SperliException;
import org.sperli.checkpoint.EpochStore;
import org.sperli.protocol.payload.Abort;
import org.sperli.trace.TraceKind;

/**
 * The checkpoints of one rank: {@code checkpoint(state)} (one {@link CheckpointRound} per epoch), the resume at a
 * restart ({@link ResumeDriver}), and the epoch the next checkpoint gets, the last committed or resumed one + 1.
 *
 * <p>Before anything is sent, a call is refused with H1618 (the job goes on) when the state is null, checkpoints are
 * off ({@link RankConfig#checkpoints()} is null), or the epoch would pass 4294967295; every rank refuses alike, since
 * every rank has the same settings and epoch.
 *
 * <p><b>Open sends and receives (H1624).</b> A rank with an isend or irecv still open refuses the checkpoint at once
 * and ends the job with ABORT reason 5, code 1624. That ABORT is the agreement: every rank that receives it reports
 * H1624 as well, not H1612, wherever it finds the rank (in its checkpoint, in another call, still connecting), so the
 * checkpoint fails with H1624 on every rank, as the protocol says. No frame carries an open count, so this is the only
 * way the verdict of one rank can reach all the others.
 *
 * <p>Any other failure sends ABORT reason 5 (reason 2 for a refused frame) with the failure's code; the rank that
 * failed throws that code and the others H1612.
 */
final class CheckpointDriver {
    /** Largest epoch: the header and the files carry it in 32 bits. */
    static final long MAX_EPOCH = 0xffff_ffffL;

    /** The steps where a test may break in. */
    enum Step {
        /** The rank file is renamed into place; its CKPT_ACK is not sent yet. */
        BEFORE_ACK,
        /** Rank 0 has every CKPT_ACK and its buddy copy; no COMMIT is written yet. */
        AFTER_ACKS,
        /** Rank 0 has written COMMIT; CKPT_COMMIT is not sent yet. */
        AFTER_COMMIT_WRITTEN,
        /** The first chunk of this rank's buddy copy is handed to TLS (on the sending thread). */
        BUDDY_CHUNK_SENT
    }

    /** A test's view of the procedure: called at every {@link Step}; an exception there fails the checkpoint. */
    @FunctionalInterface
    interface Hooks {
        Hooks NONE = (step, epoch) -> { };

        void at(Step step, long epoch);
    }

    private final FrameLink frames;
    private final OpenRequests open;
    private final CkptLink link;
    private volatile Hooks hooks = Hooks.NONE;
    private long lastEpoch;
    private Restored restored;
    private boolean resumedFromBuddy;

    CheckpointDriver(FrameLink frames, OpenRequests open) {
        this.frames = frames;
        this.open = open;
        this.link = new CkptLink(frames);
    }

    /** Installs test hooks. */
    void hooks(Hooks hooks) {
        this.hooks = hooks;
    }

    /** The state this rank resumed from; empty at a fresh start. */
    synchronized Optional<Restored> restored() {
        return Optional.ofNullable(restored);
    }

    /** Whether the resume loaded this rank's state from its buddy's copy (RESUME status 1). */
    synchronized boolean resumedFromBuddy() {
        return resumedFromBuddy;
    }

    /** The last committed or resumed epoch, 0 before the first. */
    synchronized long lastEpoch() {
        return lastEpoch;
    }

    /** At a restart (incarnation above 1) with checkpoints on: the resume, before the program starts. */
    synchronized void resumeIfRestarted() {
        CheckpointSettings settings = frames.config().checkpoints();
        if (settings == null || frames.config().incarnation() <= 1) {
            return;
        }
        long start = frames.traceStart();
        ResumeDriver.Result result = new ResumeDriver(frames, link, store(settings), settings).run();
        frames.traced(TraceKind.RESUME, start, -1, result.restoredOrNull() == null ? -1
                : result.restoredOrNull().state().length, result.epoch());
        lastEpoch = result.epoch();
        restored = result.restoredOrNull();
        resumedFromBuddy = result.fromBuddy();
    }

    /** The collective checkpoint: returns the committed epoch. */
    synchronized long checkpoint(Checkpointable state) {
        if (state == null) {
            throw new SperliException(ErrorCode.H1618, "state is null");
        }
        CheckpointSettings settings = frames.config().checkpoints();
        if (settings == null) {
            throw new SperliException(ErrorCode.H1618, "no checkpoint directory: checkpoints are off for this job");
        }
        if (lastEpoch >= MAX_EPOCH) {
            throw new SperliException(ErrorCode.H1618, "epoch " + lastEpoch + " is the last one v1 can number");
        }
        if (frames.failure() != null) {
            throw link.jobFailure(Abort.Reason.CHECKPOINT_FAILED, null);
        }
        long epoch = lastEpoch + 1;
        CheckpointRound round = null;
        try {
            int stillOpen = open.count();
            if (stillOpen > 0) {
                throw new SperliException(ErrorCode.H1624, "rank " + frames.rank() + " has " + stillOpen
                        + " isend/irecv still open; complete them (await, or test until true) before checkpoint");
            }
            round = new CheckpointRound(frames, link, store(settings), settings, epoch, hooks);
            if (frames.rank() == 0) {
                round.lead(state);
            } else {
                round.follow(state);
            }
        } catch (RuntimeException e) {
            SperliException failure = link.fail(Abort.Reason.CHECKPOINT_FAILED, CkptLink.asSperli(e));
            if (round != null) {
                round.abandon();
            }
            throw failure;
        }
        lastEpoch = epoch;
        return epoch;
    }

    private EpochStore store(CheckpointSettings settings) {
        return EpochStore.of(settings.dir(), frames.config().jobId(), frames.rank(), frames.size());
    }
}
