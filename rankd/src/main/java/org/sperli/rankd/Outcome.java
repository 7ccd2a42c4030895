package org.sperli.rankd;

import org.sperli.jobspec.RankExit;

/**
 * How a rank's life ended: the exit status, the last line for standard error (null for none) and the throwable
 * behind it, whose stack trace is printed only when debugging unless {@code alwaysTrace} (rankd's own bugs).
 */
record Outcome(int status, String lastLine, Throwable cause, boolean alwaysTrace) {
    static Outcome completed() {
        return new Outcome(RankExit.COMPLETED, null, null, false);
    }

    static Outcome of(int status, String lastLine, Throwable cause) {
        return new Outcome(status, lastLine, cause, false);
    }
}
