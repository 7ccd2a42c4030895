package org.sperli.launcher.report;

import java.util.ArrayList;
import java.util.List;

/**
 * What a run of {@code sperli run} did, for CI jobs ({@code --report FILE}, as JSON by {@link ReportFile}) and for the
 * summary line ({@link JobSummary}), which reads the same record so the two cannot tell different stories. The
 * operator's guide (docs/operators-guide.md, section 4) documents every field.
 *
 * @param format       version of this layout, {@value #FORMAT}; fields may be added without a new version
 * @param jobId        the job id (32 hex digits), the same in every incarnation
 * @param jar          the job jar as given
 * @param jarSha256    its SHA-256, as ranks check it
 * @param ranks        the job's size
 * @param restartMax   restarts allowed ({@code --restart-max})
 * @param startedAt    when the launcher began the job, ISO-8601 UTC
 * @param durationMs   from then until the report was made
 * @param exitStatus   the launcher's exit status (README, {@code sperli run --help})
 * @param outcome      why it ended, the words of the summary line
 * @param incarnations every incarnation begun, in order
 * @param restarts     each restart: the incarnation it began and why (the failure that ended the one before)
 */
public record RunReport(int format, String jobId, String jar, String jarSha256, int ranks, int restartMax,
                        String startedAt, long durationMs, int exitStatus, String outcome,
                        List<Incarnation> incarnations, List<Restart> restarts) {
    /** The layout's version. */
    public static final int FORMAT = 1;

    public RunReport {
        incarnations = List.copyOf(incarnations);
        restarts = List.copyOf(restarts);
    }

    /** A report whose restarts are read off its incarnations: every one after the first was a restart. */
    public static RunReport of(String jobId, String jar, String jarSha256, int ranks, int restartMax, String startedAt,
                               long durationMs, int exitStatus, String outcome, List<Incarnation> incarnations) {
        List<Restart> restarts = new ArrayList<>();
        for (int i = 1; i < incarnations.size(); i++) {
            restarts.add(new Restart(incarnations.get(i).incarnation(), incarnations.get(i - 1).reason()));
        }
        return new RunReport(FORMAT, jobId, jar, jarSha256, ranks, restartMax, startedAt, durationMs, exitStatus,
                outcome, incarnations, restarts);
    }

    /** How an incarnation ended. */
    public enum Result {
        /** Every rank exited 0. */
        COMPLETED,
        /** A rank failed, could not be started, or a host could not be made ready. */
        FAILED,
        /** Ctrl-C or SIGTERM stopped it. */
        STOPPED
    }

    /**
     * One incarnation.
     *
     * @param incarnation its number, from 1
     * @param startedAt   when it began, ISO-8601 UTC
     * @param durationMs  until its last rank was ended
     * @param result      how it ended
     * @param reason      the failure that ended it, as the launcher said it; null when it completed
     * @param ranks       every rank, index = rank
     */
    public record Incarnation(long incarnation, String startedAt, long durationMs, Result result, String reason,
                              List<Rank> ranks) {
        public Incarnation {
            ranks = List.copyOf(ranks);
        }
    }

    /**
     * One rank in one incarnation.
     *
     * @param rank           its rank
     * @param host           its host (after any move away from an unreachable one)
     * @param port           its port
     * @param where          {@code local pid N} or {@code ssh HOST pid N}; null when it was not started
     * @param exitStatus     its exit status (README, "Rank exit statuses"); null when not started or not seen to end
     * @param status         the status in words, with the meaning of its H code when it gave one
     * @param code           the H code its last stderr line starts with ({@code H1613}), else null
     * @param lastStderrLine that line; null when it wrote none
     * @param durationMs     from its start to its exit; null when not started or not seen to end
     */
    public record Rank(int rank, String host, int port, String where, Integer exitStatus, String status, String code,
                       String lastStderrLine, Long durationMs) {
    }

    /**
     * A restart.
     *
     * @param incarnation the incarnation the restart began
     * @param reason      why: the failure that ended the incarnation before it
     */
    public record Restart(long incarnation, String reason) {
    }
}
