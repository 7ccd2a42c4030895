package org.sperli.launcher.report;

import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * What the launcher says at the end of a job, in one line on stderr, read off the same {@link RunReport} that
 * {@code --report} writes: the job, how many ranks and incarnations, how long it took, the launcher's exit status and
 * why, and when it is not 0 each rank's status in the last incarnation that started ranks ({@code -} for one that
 * never started or was not seen to end).
 */
public final class JobSummary {
    private JobSummary() {
    }

    /** The summary line, without the {@code sperli: } of a note. */
    public static String text(RunReport report) {
        StringBuilder s = new StringBuilder("job ").append(report.jobId()).append(": ").append(report.outcome())
                .append("; ranks ").append(report.ranks())
                .append(", incarnations used ").append(report.incarnations().size())
                .append(" (restarts allowed ").append(report.restartMax()).append(')')
                .append(", duration ").append(seconds(report.durationMs()))
                .append(", exit status ").append(report.exitStatus());
        if (report.exitStatus() != 0) {
            s.append("; rank statuses ").append(statuses(lastStarted(report)));
        }
        return s.toString();
    }

    private static List<RunReport.Rank> lastStarted(RunReport report) {
        List<RunReport.Incarnation> all = report.incarnations();
        for (int i = all.size() - 1; i >= 0; i--) {
            if (all.get(i).ranks().stream().anyMatch(r -> r.where() != null)) {
                return all.get(i).ranks();
            }
        }
        return Collections.nCopies(report.ranks(), null);
    }

    private static String statuses(List<RunReport.Rank> ranks) {
        StringBuilder s = new StringBuilder("[");
        for (int i = 0; i < ranks.size(); i++) {
            RunReport.Rank rank = ranks.get(i);
            s.append(i == 0 ? "" : " ").append(rank == null || rank.exitStatus() == null ? "-" : rank.exitStatus());
        }
        return s.append(']').toString();
    }

    private static String seconds(long ms) {
        return String.format(Locale.ROOT, "%d.%03d s", ms / 1000, ms % 1000);
    }
}
