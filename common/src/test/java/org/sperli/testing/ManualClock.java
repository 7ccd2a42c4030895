package org.sperli.testing;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import org.sperli.jvm.Clock;

/**
 * A {@link Clock} that stands still until the test moves it: its elapsed time and its wall time move together, by
 * {@link #advance}. Safe to read and move from any thread.
 *
 * <p>Its elapsed time starts far from zero, so that code that takes a reading of 0 for "never" is caught.
 */
public final class ManualClock implements Clock {
    /** Where a clock made without a wall time starts: a fixed instant, so that what it stamps can be asserted. */
    public static final Instant DEFAULT_START = Instant.parse("2026-12-01T09:15:02.047Z");
    private static final long NANO_ORIGIN = 1_000_000_000_000L;

    private final Instant start;
    private final AtomicLong elapsedNanos = new AtomicLong();

    /** A clock at {@link #DEFAULT_START}. */
    public ManualClock() {
        this(DEFAULT_START);
    }

    /** A clock whose wall time is {@code start} until it is moved. */
    public ManualClock(Instant start) {
        this.start = start;
    }

    /** Moves the clock on by {@code by} (not back). */
    public void advance(Duration by) {
        advanceNanos(by.toNanos());
    }

    /** Moves the clock on by {@code ms} milliseconds. */
    public void advanceMillis(long ms) {
        advance(Duration.ofMillis(ms));
    }

    /** Moves the clock on by {@code nanos} nanoseconds. */
    public void advanceNanos(long nanos) {
        if (nanos < 0) {
            throw new IllegalArgumentException("a clock does not go back: " + nanos + " ns");
        }
        elapsedNanos.addAndGet(nanos);
    }

    /** How far the clock was moved since it was made. */
    public Duration elapsed() {
        return Duration.ofNanos(elapsedNanos.get());
    }

    @Override
    public long nanoTime() {
        return NANO_ORIGIN + elapsedNanos.get();
    }

    @Override
    public Instant instant() {
        return start.plusNanos(elapsedNanos.get());
    }

    @Override
    public String toString() {
        return "ManualClock at " + instant();
    }
}
