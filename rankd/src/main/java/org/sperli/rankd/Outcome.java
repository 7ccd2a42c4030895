package org.sperli.rankd;

import org.sperli.SperliException;
import org.sperli.jobspec.RankExit;
import org.sperli.rankd.job.ProgramEnd;

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

    /**
     * The outcome of a job that failed with {@code failure} after the program threw {@code thrown} (either may be
     * null, not both): {@link ProgramEnd#of}, the program's own when it threw first, the job's failure otherwise.
     */
    static Outcome ofJob(SperliException failure, Throwable thrown) {
        ProgramEnd end = ProgramEnd.of(failure, thrown);
        return of(end.status(), end.lastLine(), end.cause());
    }
}
