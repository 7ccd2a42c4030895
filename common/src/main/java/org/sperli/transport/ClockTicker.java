package org.sperli.transport;

import io.netty.util.concurrent.Ticker;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.sperli.jvm.Clock;

/**
 * Netty's {@link Ticker} over the rank's {@link Clock}: the time its event loop schedules by, and that Netty's
 * handlers read ({@code IdleStateHandler}'s silence, {@link LivenessHandler}'s heartbeat interval), so that a test
 * which moves the clock moves them too. Its origin is the clock's reading when it was made.
 */
public final class ClockTicker implements Ticker {
    private final LongSupplier nanos;
    private final long origin;

    private ClockTicker(LongSupplier nanos) {
        this.nanos = nanos;
        this.origin = nanos.getAsLong();
    }

    /** A ticker that reads {@code clock}. */
    public static Ticker of(Clock clock) {
        return new ClockTicker(clock::nanoTime);
    }

    /** A ticker that reads {@code nanos}, the clock's readings as an event loop gives them out (see DrivenLoop). */
    static Ticker reading(LongSupplier nanos) {
        return new ClockTicker(nanos);
    }

    @Override
    public long initialNanoTime() {
        return origin;
    }

    @Override
    public long nanoTime() {
        return nanos.getAsLong() - origin;
    }

    /** A real sleep: Netty asks a ticker to sleep only in its own waits, none of which the rank's loop makes. */
    @Override
    public void sleep(long delay, TimeUnit unit) throws InterruptedException {
        unit.sleep(delay);
    }
}
