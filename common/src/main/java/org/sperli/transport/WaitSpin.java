package org.sperli.transport;

import java.util.concurrent.TimeUnit;

/**
 * How long a rank's waiting thread polls its connections, from the start of its wait, before it sleeps. A sleep in
 * the select and the wake-up when the reply comes cost a large part of a small message's round trip (see
 * docs/performance.md, section 6.1).
 * Polling pays only while every rank on the machine has a core of its own: where ranks outnumber the cores, a rank
 * that polls takes the core from the rank whose reply it waits for, so there it never polls.
 *
 * <p>Even then the scheduler may put two ranks that talk to each other on one core, and keep them there: a
 * kernel that packs threads onto few (virtual) cores did so here for seconds at a time. A thread that polled without
 * pausing then held that core for its whole spin while the reply it waited for could not be computed: 60-80 us per
 * half round trip instead of 9 (docs/performance.md, section 6.6). So a polling thread offers its core before each
 * poll ({@link #pause}); with no other thread queued on the core that costs one system call.
 */
public final class WaitSpin {
    /**
     * The longest poll before a sleep: a small message's whole round trip on one machine fits with room to spare, and
     * a wait that is longer (a peer that computes) costs this much CPU once, against a sleep it then does anyway.
     */
    public static final long SPIN_NANOS = TimeUnit.MICROSECONDS.toNanos(50);

    private WaitSpin() {
    }

    /** Before a poll: lets a thread queued on this core (the peer whose reply is awaited, perhaps) run first. */
    public static void pause() {
        Thread.yield();
    }

    /** The poll for a rank that shares its machine with {@code ranksOnMachine - 1} others, on {@code processors}. */
    public static long nanosFor(int ranksOnMachine, int processors) {
        return ranksOnMachine <= processors ? SPIN_NANOS : 0;
    }
}
