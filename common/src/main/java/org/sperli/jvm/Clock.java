package org.sperli.jvm;

import java.time.Instant;
import java.time.InstantSource;

/**
 * The one source of time of a process: every timer, deadline and timestamp of a rank and of the launcher reads it,
 * so that a test can move time instead of waiting for it. {@link #SYSTEM} is the only reader of the system's clocks;
 * a process takes it where it starts ({@code Main}) and hands it down.
 *
 * <p>Two readings: {@link #nanoTime} for elapsed time (monotonic, comparable only with another reading of the same
 * clock, as {@link System#nanoTime}), and the wall time of {@link InstantSource} ({@link #instant}, {@link #millis})
 * for what is shown, stamped or checked against another process (certificates, join tokens).
 */
public interface Clock extends InstantSource {
    /** The system's clocks: {@link System#nanoTime} and {@link System#currentTimeMillis}. */
    Clock SYSTEM = new Clock() {
        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public long millis() {
            return System.currentTimeMillis();
        }

        @Override
        public Instant instant() {
            return Instant.now();
        }

        @Override
        public String toString() {
            return "Clock.SYSTEM";
        }
    };

    /** Elapsed time in nanoseconds from an arbitrary origin; only the difference of two readings means anything. */
    long nanoTime();
}
