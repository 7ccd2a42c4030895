package org.sperli.runtime;

import org.sperli.SperliException;
import org.sperli.jvm.Clock;
import org.sperli.protocol.payload.Abort;

/**
 * The fate of one rank's job: running, left normally (BYE), or failed with one H code. The first failure wins and is
 * what every later call throws; a job that is leaving can no longer fail.
 *
 * <p>{@link #fail} runs the caller's {@code beforeVisible} (the ABORT frames queued on every connection) before any
 * other thread can see the failure: a caller woken by it may close the runtime, and that close must come after the
 * ABORT on each connection. Then what {@link #whenEnded} added wakes every waiting thread.
 */
final class JobFate {
    private final java.util.List<Runnable> onEnd = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final Clock clock;
    private volatile SperliException failure;
    /** The ABORT that ended the job, when a peer's ABORT was its first failure. */
    private volatile Abort receivedAbort;
    private volatile boolean leaving;

    /** A running job whose waits for its verdict read {@code clock}. */
    JobFate(Clock clock) {
        this.clock = clock;
    }

    /** Adds what wakes a set of waiting threads once the job failed; it runs after the failure became visible. */
    void whenEnded(Runnable wake) {
        onEnd.add(wake);
    }

    /**
     * Makes {@code e} the job's failure unless it already failed or is leaving; returns whether it did. {@code
     * receivedOrNull} is the peer's ABORT that caused it.
     */
    boolean fail(SperliException e, Abort receivedOrNull, Runnable beforeVisible) {
        synchronized (this) {
            if (failure != null || leaving) {
                return false;
            }
            beforeVisible.run();
            receivedAbort = receivedOrNull;
            failure = e;
            notifyAll();
        }
        onEnd.forEach(Runnable::run);
        return true;
    }

    /** Starts the normal departure; returns true when the job was still running (so BYE is due). */
    boolean leave() {
        synchronized (this) {
            boolean running = failure == null && !leaving;
            leaving = true;
            notifyAll();
            return running;
        }
    }

    /** Waits up to {@code ms} for the job to fail; returns its failure, or null when it did not fail in time. */
    synchronized SperliException awaitFailure(long ms) {
        long end = clock.nanoTime() + ms * 1_000_000;
        boolean interrupted = false;
        try {
            while (failure == null && !leaving) {
                long left = end - clock.nanoTime();
                if (left <= 0) {
                    break;
                }
                try {
                    wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            return failure;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The failure that ended the job, or null. */
    SperliException failure() {
        return failure;
    }

    /** The peer's ABORT when that was the job's first failure; null otherwise. */
    Abort receivedAbort() {
        return receivedAbort;
    }

    /** Whether frames still matter: nothing failed and the rank is not leaving. */
    boolean running() {
        return failure == null && !leaving;
    }

    boolean leaving() {
        return leaving;
    }

    /** Throws the job's failure (a new exception with the same code and reason, caused by it) if there is one. */
    void throwIfFailed() {
        SperliException f = failure;
        if (f != null) {
            throw new SperliException(f.code(), f.reason(), f);
        }
    }

    /** The job's failure as a call throws it, or {@code fallback} while the job runs. */
    SperliException failureOr(SperliException fallback) {
        SperliException f = failure;
        return f != null ? new SperliException(f.code(), f.reason(), f) : fallback;
    }
}
