package org.sperli.testkit;

import java.nio.file.Path;
import java.util.List;

/**
 * How a kit run ended: every incarnation with every rank's end and output, and the job's outcome as
 * {@code sperli run} would say it. {@link #assertCompleted} is the one-line check of a test; its message holds every
 * rank's end and output, so a failing test shows what happened.
 */
public final class JobResult {
    private final String jobId;
    private final List<Incarnation> incarnations;
    private final String outcome;
    private final boolean completed;
    private final List<String> leftRunning;
    private final Path traceOrNull;

    JobResult(String jobId, List<Incarnation> incarnations, String outcome, boolean completed,
              List<String> leftRunning, Path traceOrNull) {
        this.jobId = jobId;
        this.incarnations = List.copyOf(incarnations);
        this.outcome = outcome;
        this.completed = completed;
        this.leftRunning = List.copyOf(leftRunning);
        this.traceOrNull = traceOrNull;
    }

    /** Whether the job completed: every rank of its last incarnation completed. */
    public boolean completed() {
        return completed;
    }

    /** "completed", or why the job failed as the launcher says it ("rank 2: a peer was lost (status 5): ..."). */
    public String outcome() {
        return outcome;
    }

    /** The job id, 32 hex digits; the checkpoint files live under {@code <checkpoint dir>/<job id>/}. */
    public String jobId() {
        return jobId;
    }

    /** Every incarnation, the first at index 0. */
    public List<Incarnation> incarnations() {
        return incarnations;
    }

    /** The last incarnation. */
    public Incarnation last() {
        return incarnations.get(incarnations.size() - 1);
    }

    /** Rank {@code rank}'s end in the last incarnation. */
    public RankResult rank(int rank) {
        return last().rank(rank);
    }

    /** What rank {@code rank} printed on System.out in the last incarnation. */
    public List<String> stdout(int rank) {
        return rank(rank).stdout();
    }

    /** What rank {@code rank} printed on System.err in the last incarnation. */
    public List<String> stderr(int rank) {
        return rank(rank).stderr();
    }

    /**
     * Threads of ranks that had not ended when the run returned (a program that ignores the interrupt and the
     * job's end): empty after a clean run.
     */
    public List<String> leftRunning() {
        return leftRunning;
    }

    /** The trace file written, or null when the run was not traced. */
    public Path trace() {
        return traceOrNull;
    }

    /** This result when the job completed; otherwise an AssertionError with {@link #report}. */
    public JobResult assertCompleted() {
        if (!completed) {
            throw new AssertionError("the job did not complete: " + outcome + "\n" + report());
        }
        return this;
    }

    /** Every incarnation, every rank's end and its lines, for a test's message. */
    public String report() {
        StringBuilder s = new StringBuilder("job " + jobId + ": " + outcome + "\n");
        for (Incarnation incarnation : incarnations) {
            s.append("incarnation ").append(incarnation.number()).append(": ")
                    .append(incarnation.completed() ? "completed" : incarnation.failureOrNull()).append('\n');
            for (RankResult r : incarnation.ranks()) {
                s.append("  ").append(r).append('\n');
                r.stdout().forEach(line -> s.append("    out: ").append(line).append('\n'));
                r.stderr().forEach(line -> s.append("    err: ").append(line).append('\n'));
                r.log().forEach(line -> s.append("    log: ").append(line).append('\n'));
            }
        }
        leftRunning.forEach(t -> s.append("left running: ").append(t).append('\n'));
        return s.toString();
    }

    @Override
    public String toString() {
        return "JobResult[" + jobId + ", " + outcome + ", " + incarnations.size() + " incarnation(s)]";
    }
}
