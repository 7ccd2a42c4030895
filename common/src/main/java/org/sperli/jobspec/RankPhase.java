package org.sperli.jobspec;

import java.util.Optional;

/**
 * How far a rank process got, as one line it prints on stderr for the launcher's progress display (protocol section
 * 11): {@code sperli-rank: connected} once the HELLO of every peer was checked, {@code sperli-rank: running} when
 * the program starts, after any resume. The launcher counts these lines and does not show them (unless verbose). They
 * are optional for other rank implementations: a launcher that never sees them counts only the ranks it started, and
 * the job runs all the same.
 */
public enum RankPhase {
    CONNECTED("connected"),
    RUNNING("running");

    /** What every phase line starts with. */
    public static final String PREFIX = "sperli-rank: ";

    private final String line;

    RankPhase(String word) {
        this.line = PREFIX + word;
    }

    /** The whole line, without a line end. */
    public String line() {
        return line;
    }

    /** The phase {@code line} announces; empty for any other line. */
    public static Optional<RankPhase> ofLine(String line) {
        if (!line.startsWith(PREFIX)) {
            return Optional.empty();
        }
        for (RankPhase p : values()) {
            if (p.line.equals(line)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }
}
