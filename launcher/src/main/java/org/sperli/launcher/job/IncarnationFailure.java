package org.sperli.launcher.job;

/**
 * Why an incarnation ended: the operator stopped it, a rank could not be started, or a rank failed. {@code rank} is
 * the rank that failed, or -1 when no rank did. {@code permanent} when another try cannot help: a rank that refused
 * its description or jar (status 2), a rank command the shell could not run (126, 127), a local command that could
 * not be started.
 */
record IncarnationFailure(String what, boolean stopped, boolean permanent, int rank) {
    static IncarnationFailure stoppedByOperator() {
        return new IncarnationFailure("stopped by the operator", true, false, -1);
    }

    static IncarnationFailure permanentFailure(String what) {
        return new IncarnationFailure(what, false, true, -1);
    }

    static IncarnationFailure restartable(String what) {
        return new IncarnationFailure(what, false, false, -1);
    }

    static IncarnationFailure ofRank(RankProcess p, int status) {
        String last = p.lastStderrLine();
        String what = "rank " + p.rank() + " (" + p.where() + ") " + RankStatus.describe(status, last)
                + (last.isEmpty() ? "" : ": " + last);
        return new IncarnationFailure(what, false, RankStatus.isFinal(status), p.rank());
    }

    String describe() {
        return what;
    }
}
