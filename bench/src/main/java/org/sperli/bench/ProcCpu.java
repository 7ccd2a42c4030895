package org.sperli.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The CPU time of another process from {@code /proc/PID/stat} (user and system time of all its threads), in the
 * kernel's clock ticks of 1/100 s: the granularity is 10 ms, so a figure per connection is taken over a hundred.
 */
final class ProcCpu {
    /** USER_HZ on Linux for every architecture this runs on. */
    private static final long NANOS_PER_TICK = 10_000_000L;
    /** utime and stime, counted from the field after the command's closing parenthesis (field 3, the state). */
    private static final int UTIME_AFTER_STATE = 11;

    private ProcCpu() {
    }

    /** The process's CPU nanoseconds so far, or -1 when it is gone. */
    static long nanos(long pid) {
        String stat;
        try {
            stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        } catch (IOException e) {
            return -1;
        }
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(f[UTIME_AFTER_STATE]) + Long.parseLong(f[UTIME_AFTER_STATE + 1])) * NANOS_PER_TICK;
    }
}
