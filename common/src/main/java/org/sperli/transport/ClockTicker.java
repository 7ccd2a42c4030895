package org.sperli.transport;

import io.netty.util.concurrent.Ticker;
import java.util.concurrent.TimeUnit;
import org.sperli.jvm.Clock;

/**
 * Netty's {@link Ticker} over the rank's {@link Clock}: the time its event loop schedules by, and that Netty's
 * handlers read ({@code IdleStateHandler}'s silence, {@link LivenessHandler}'s heartbeat interval), so that a test
 * which moves the clock moves them too. Its origin is the clock's reading when it was made.
 */
public final class ClockTicker implements Ticker {
    private final Clock clock;
    private final long origin;

    private ClockTicker(Clock clock) {
        this.clock = clock;
        this.origin = clock.nanoTime();
    }

    /** A ticker that reads {@code clock}. */
    public static Ticker of(Clock clock) {
        return new ClockTicker(clock);
    }

    @Override
    public long initialNanoTime() {
        return origin;
    }

    @Override
    public long nanoTime() {
        return clock.nanoTime() - origin;
    }

    /** A real sleep: Netty asks a ticker to sleep only in its own waits, none of which the rank's loop makes. */
    @Override
    public void sleep(long delay, TimeUnit unit) throws InterruptedException {
        unit.sleep(delay);
    }
}
