package org.sperli.rankd;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.sperli.ErrorCode;
import org.sperli.SperliException;

/**
 * The open-file limit ({@code nofile}) of this process against the connections of its job: a rank holds one socket
 * per peer for the whole job, so a job of 4096 ranks needs more than the common limit of 1024 or even 4096. The JVM
 * raises its soft limit to the hard one as it starts (HotSpot's {@code MaxFDLimit}, on by default on Linux), which is
 * all that a process may do by itself; a rank whose limit still cannot hold its connections refuses before it
 * connects, in one line, instead of failing with "Too many open files" halfway through the setup of every rank.
 */
record OpenFileLimit(long soft, long hard) {
    /**
     * Descriptors of a rank besides its connections: the JVM's own and its jars, standard streams, the event loop's
     * selector, the listening socket, checkpoint and trace files.
     */
    static final int RESERVE = 128;
    /** The line of {@code /proc/self/limits}, whose soft and hard values follow in columns. */
    private static final String PROC_LINE = "Max open files";
    private static final Path PROC_LIMITS = Path.of("/proc/self/limits");

    /** This process's limit, or null where {@code /proc/self/limits} cannot be read (then nothing is checked). */
    static OpenFileLimit ofThisProcess() {
        List<String> lines;
        try {
            lines = Files.readAllLines(PROC_LIMITS);
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return parse(lines);
    }

    /** The limit in the lines of a {@code /proc/PID/limits}, or null when they hold none. */
    static OpenFileLimit parse(List<String> lines) {
        for (String line : lines) {
            if (line.startsWith(PROC_LINE)) {
                String[] words = line.substring(PROC_LINE.length()).trim().split("\\s+");
                if (words.length >= 2) {
                    return new OpenFileLimit(value(words[0]), value(words[1]));
                }
            }
        }
        return null;
    }

    private static long value(String word) {
        return "unlimited".equals(word) ? Long.MAX_VALUE : Long.parseLong(word);
    }

    /** The descriptors a rank of a job of {@code size} ranks needs. */
    static long needed(int size) {
        return size - 1L + RESERVE;
    }

    /**
     * Throws H1616 when this limit cannot hold the connections of a rank of a job of {@code size} ranks on
     * {@code host}: the job is too large for the host as it is set up, and a restart would fail the same way.
     */
    void check(int size, String host) {
        long needed = needed(size);
        if (soft >= needed) {
            return;
        }
        String remedy = hard >= needed
                ? "the JVM did not raise its soft limit to the hard one (was it started with -XX:-MaxFDLimit?)"
                : "raise the hard limit of the rank's user on host " + host + " (limits.conf, systemd LimitNOFILE)"
                        + " to at least " + needed;
        throw new SperliException(ErrorCode.H1616, "a job of " + size + " ranks needs " + needed
                + " open files in each rank (" + (size - 1) + " connections and " + RESERVE + " for the JVM and its"
                + " files), but this rank's limit (nofile) is " + soft + ", its hard limit " + hard + "; " + remedy);
    }
}
