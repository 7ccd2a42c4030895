package org.sperli.launcher.report;

import java.time.Duration;
import java.util.List;

/**
 * What the launcher says at the end of a job: the job, how many ranks and incarnations, how long it took, the
 * launcher's exit status and why, and each rank's status in the last incarnation ({@code -1} for one that never
 * started).
 */
public record JobSummary(String jobId, int ranks, long incarnationsUsed, int restartMax, Duration duration,
                         int exitStatus, String outcome, List<Integer> lastRankStatuses) {
    public JobSummary {
        lastRankStatuses = List.copyOf(lastRankStatuses);
    }

    /** The summary as the one line printed to stderr. */
    public String text() {
        StringBuilder s = new StringBuilder("job ").append(jobId).append(": ").append(outcome)
                .append("; ranks ").append(ranks)
                .append(", incarnations used ").append(incarnationsUsed)
                .append(" (restarts allowed ").append(restartMax).append(')')
                .append(", duration ").append(seconds(duration))
                .append(", exit status ").append(exitStatus);
        if (exitStatus != 0 && !lastRankStatuses.isEmpty()) {
            s.append("; rank statuses ").append(statuses());
        }
        return s.toString();
    }

    private String statuses() {
        StringBuilder s = new StringBuilder("[");
        for (int i = 0; i < lastRankStatuses.size(); i++) {
            int status = lastRankStatuses.get(i);
            s.append(i == 0 ? "" : " ").append(status < 0 ? "-" : Integer.toString(status));
        }
        return s.append(']').toString();
    }

    private static String seconds(Duration d) {
        long ms = d.toMillis();
        return String.format(java.util.Locale.ROOT, "%d.%03d s", ms / 1000, ms % 1000);
    }
}
