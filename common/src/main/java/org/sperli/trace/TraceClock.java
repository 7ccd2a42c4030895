package org.sperli.trace;

import java.time.Instant;
import org.sperli.jvm.Clock;

/**
 * The clock of a process's traces: its {@link Clock}'s {@link Clock#nanoTime} for durations, anchored once to that
 * clock's wall time so that events carry wall time in nanoseconds since the epoch. Ranks that share one trace clock
 * (the test kit's ranks, threads of one JVM) line up exactly; rank processes on one host each anchor to the same wall
 * clock (within its resolution, a microsecond on Linux, and the two clocks' drift over the job); ranks on other hosts
 * are aligned when the trace is written ({@link ChromeTrace}, from the HELLO exchange).
 */
public final class TraceClock {
    private final Clock clock;
    private final long wallMinusNano;

    /** A trace clock reading {@code clock}, anchored to its wall time now. */
    public TraceClock(Clock clock) {
        this.clock = clock;
        long before = clock.nanoTime();
        Instant wall = clock.instant();
        long after = clock.nanoTime();
        this.wallMinusNano = wall.getEpochSecond() * 1_000_000_000L + wall.getNano() - (before + (after - before) / 2);
    }

    /** Now, on the monotonic clock that spans are measured with. */
    public long nanoTime() {
        return clock.nanoTime();
    }

    /** {@code nanoTime}, a value of {@link #nanoTime}, as wall time: nanoseconds since the epoch. */
    public long wallNanos(long nanoTime) {
        return nanoTime + wallMinusNano;
    }
}
