package org.sperli.jobspec;

import java.util.Optional;

/**
 * How far a rank process got, as one line it prints on stderr (protocol section 11): {@code sperli-rank: WORD}. The
 * launcher counts {@link #CONNECTED} and {@link #RUNNING} for its progress display and keeps the time each line
 * arrived for the phase breakdown of {@code sperli run -v}; it shows none of them. They are optional for other rank
 * implementations: a launcher that never sees them counts only the ranks it started, and the job runs all the same.
 * A rank prints them in this order, each at most once.
 */
public enum RankPhase {
    /** The process is up and its arguments are read: for a JVM, {@code main} was entered. */
    STARTED("started"),
    /** The rank listens at its port (tables section 10); a job of one rank does not listen and skips this line. */
    LISTENING("listening"),
    /** The HELLO of every peer was checked, before any resume. */
    CONNECTED("connected"),
    /** The program starts, after any resume. */
    RUNNING("running"),
    /** The program returned or threw. */
    DONE("done"),
    /** The connections are closed: BYE sent and every peer's BYE or close seen, or the job's failure settled. */
    CLOSED("closed");

    /** What every phase line starts with. */
    public static final String PREFIX = "sperli-rank: ";

    private final String word;
    private final String line;

    RankPhase(String word) {
        this.word = word;
        this.line = PREFIX + word;
    }

    /** The word after the prefix. */
    public String word() {
        return word;
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
