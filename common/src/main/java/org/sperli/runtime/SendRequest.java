package org.sperli.runtime;

import io.netty.channel.ChannelFuture;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.jvm.Clock;
import org.sperli.transport.Progress;

/** A send in flight: done when TLS has taken the bytes, so the caller's buffer may be reused. */
final class SendRequest extends CountedRequest<Void> {
    private final int dest;
    private final ChannelFuture future;
    private final JobFate fate;
    private final Progress progress;
    private final Clock clock;

    SendRequest(int dest, ChannelFuture future, JobFate fate, Progress progress, Clock clock) {
        this.dest = dest;
        this.future = future;
        this.fate = fate;
        this.progress = progress;
        this.clock = clock;
    }

    @Override
    public Void await() {
        awaitNanos(-1);
        return null;
    }

    @Override
    public Void await(Duration timeout) {
        awaitNanos(timeout.toNanos());
        return null;
    }

    @Override
    public boolean test() {
        if (!future.isDone()) {
            return false;
        }
        awaitNanos(0);
        return true;
    }

    /** Waits up to {@code timeoutNs} (negative: no bound); throws the job's failure or H1613 if the send failed. */
    void awaitNanos(long timeoutNs) {
        if (!awaitDone(timeoutNs)) {
            return;
        }
        seen();
        if (!future.isSuccess()) {
            // A write fails when the connection closed; the job's verdict on that close is due within the grace.
            fate.awaitFailure(FrameLink.VERDICT_WAIT_MS);
            throw fate.failureOr(new SperliException(ErrorCode.H1613, "rank " + dest + " is gone: "
                    + future.cause()));
        }
    }

    /**
     * Waits until the write is done, running the connections meanwhile where this thread can (the bytes of a large
     * payload go out as the socket takes them); false when {@code timeoutNs} (negative: no bound) passed first.
     */
    private boolean awaitDone(long timeoutNs) {
        long began = clock.nanoTime();
        long deadline = began + timeoutNs;
        while (!future.isDone()) {
            long left = timeoutNs < 0 ? Progress.LONGEST_DRIVE_NS : deadline - clock.nanoTime();
            if (left <= 0) {
                return false;
            }
            if (!progress.drive(left, began, future::isDone)) {
                return timeoutNs < 0 ? future.awaitUninterruptibly().isDone()
                        : future.awaitUninterruptibly(left, TimeUnit.NANOSECONDS);
            }
        }
        return true;
    }

    /**
     * Whether the sender may leave this send before TLS took it: it has not failed yet and its connection's queue of
     * bytes not yet written is below Netty's high water mark (64 KiB), so that sends left early queue only that much.
     */
    boolean mayLeaveEarly() {
        return !future.isDone() && future.channel().isWritable();
    }

    /** After a failure elsewhere: waits at most {@code ms} for TLS to let go of the payload, throwing nothing. */
    void awaitQuietly(long ms) {
        future.awaitUninterruptibly(ms, TimeUnit.MILLISECONDS);
    }
}
