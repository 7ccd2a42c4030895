package org.sperli.launcher.job;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * One started rank, local process or SSH channel alike. Its output reaches the console line by line while it runs;
 * {@link #exited()} completes with its exit status once it has ended and its output is through.
 *
 * <p>Statuses: the rank's own (protocol section 11: 0 completed, 2 description or jar refused, 3 program failed,
 * 4 aborted by a peer, 5 peer lost, 6 refused frame or handshake, 7 collective mismatch or checkpoint or resume failed,
 * 8 stopped by the operator), 128 + n for a rank ended by signal n, {@link #LOST} when the SSH connection went away
 * without a status.
 */
public interface RankProcess {
    /** The status of a remote rank whose connection was lost before it reported one. */
    int LOST = 255;

    int rank();

    /** For messages: {@code local pid 4711} or {@code ssh node01}. */
    String where();

    /** Completes with the exit status. */
    CompletableFuture<Integer> exited();

    /** The last line the rank wrote to stderr (where a rank puts its H code), or empty. */
    String lastStderrLine();

    /** Asks the rank to stop: SIGTERM, which a rank turns into ABORT reason 8. */
    void terminate();

    /** Ends the rank at once (SIGKILL, closed channel). */
    void kill();

    /**
     * Whether the rank can still be reached to be ended, known at the latest after {@code bound}: a local process
     * always, an SSH rank while its session answers. A rank behind a host that stopped answering cannot end by any
     * signal.
     */
    default CompletableFuture<Boolean> reachable(Duration bound) {
        return CompletableFuture.completedFuture(true);
    }

    default boolean isAlive() {
        return !exited().isDone();
    }
}
