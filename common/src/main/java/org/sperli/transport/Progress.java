package org.sperli.transport;

import java.util.function.BooleanSupplier;

/** How a thread that waits for the connections lets them go on: it runs their event loop itself where it can. */
public interface Progress {
    /** A thread that drives while it waits looks at what it waits for at least this often, whatever the loop says. */
    long LONGEST_DRIVE_NS = 100_000_000L;

    /** No connections (a job of one rank): nothing to run, every wait is the caller's own. */
    Progress NONE = new Progress() {
        @Override
        public boolean drive(long maxNanos, long waitBegan, BooleanSupplier changed) {
            return false;
        }

        @Override
        public void wakeup() {
            // nothing waits in a loop
        }
    };

    /**
     * Runs the connections once in the calling thread, waiting up to {@code maxNanos} for something to happen unless
     * {@code changed} already says the caller's wait is over. {@code waitBegan} is the rank's clock
     * ({@link org.sperli.jvm.Clock#nanoTime}) when the caller's wait began, which calls this in a loop: a loop may
     * poll before it sleeps, but only early in a wait, so that threads that wait long (or several at once, each ending
     * the other's pass) sleep. Returns false, without running anything, where the caller must wait in its own way (no
     * loop, the loop has ended, or the caller is the loop).
     */
    boolean drive(long maxNanos, long waitBegan, BooleanSupplier changed);

    /** Ends the wait of a thread in {@link #drive}: something it waits for changed outside the loop. */
    void wakeup();
}
