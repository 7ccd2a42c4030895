package org.sperli;

import java.time.Duration;

/**
 * A nonblocking send or receive. It is open until {@link #await} returned or {@link #test} returned true; an open
 * request makes a checkpoint fail with H1624.
 *
 * @param <T> what the operation yields: {@code byte[]} for a receive, {@code Void} for a send
 */
public interface Request<T> {
    /** Blocks until the operation completes and returns its result; a failed job throws its SperliException. */
    T await();

    /**
     * Like {@link #await} but gives up after {@code timeout}, returning {@code null} while still open. An interrupt of
     * the waiting thread ends a receive's wait at once with a SperliException H1612, the request still open; a
     * receive's {@link #await} without a bound waits on through an interrupt and returns with the interrupt set.
     */
    T await(Duration timeout);

    /** Whether the operation has completed; never blocks. A failed job throws its SperliException. */
    boolean test();
}
