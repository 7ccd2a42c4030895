package org.sperli.runtime;

import java.io.IOException;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.protocol.payload.Abort;

/**
 * One part of a checkpoint or resume that runs on its own thread beside the rank's program thread: a buddy copy sent
 * while the predecessor's copy is received ({@link BuddySender}), or the own rank file made durable while the copies
 * travel ({@link CheckpointRound}). A failure there ends the job at once (ABORT with the procedure's phase and the
 * failure's code), so that the program thread, waiting for a peer, hears of it; {@link #join} throws it again.
 *
 * @param <T> what the step produces
 */
final class SideStep<T> {
    /** The work of a step; an IOException is H1619, "cannot " and the step's description. */
    @FunctionalInterface
    interface Body<T> {
        T run() throws IOException;
    }

    private static final long JOIN_AFTER_FAILURE_MS = 5000;

    private final FrameLink frames;
    private final Abort.Reason phase;
    private final String what;
    private final Body<T> body;
    private final Thread thread;
    private volatile SperliException failure;
    private T result;

    private SideStep(FrameLink frames, String name, Abort.Reason phase, String what, Body<T> body) {
        this.frames = frames;
        this.phase = phase;
        this.what = what;
        this.body = body;
        this.thread = new Thread(this::run, "sperli-rank" + frames.rank() + "-" + name);
        this.thread.setDaemon(true);
    }

    /**
     * Starts {@code body} on a thread named after the rank and {@code name}; {@code what} says in words what it does
     * ("send rank-1.ckpt to rank 2"), for the failure line of an IOException.
     */
    static <T> SideStep<T> start(FrameLink frames, String name, Abort.Reason phase, String what, Body<T> body) {
        SideStep<T> step = new SideStep<>(frames, name, phase, what, body);
        step.thread.start();
        return step;
    }

    /** Waits until the step ended; returns what it produced, or throws the failure that ended it. */
    T join() {
        boolean interrupted = false;
        while (true) {
            try {
                thread.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (failure != null) {
            throw failure;
        }
        return result;
    }

    /** After a failure elsewhere: waits a bounded time for the thread, which ends once the job's channels close. */
    void joinQuietly() {
        try {
            thread.join(JOIN_AFTER_FAILURE_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        try {
            result = body.run();
        } catch (SperliException e) {
            failure = e;
        } catch (IOException | RuntimeException e) {
            failure = new SperliException(ErrorCode.H1619, "cannot " + what + ": " + e, e);
        }
        if (failure != null && frames.failure() == null) {
            frames.abort(phase, failure.code(), "rank " + frames.rank() + ": " + failure.reason(), failure);
        }
    }
}
