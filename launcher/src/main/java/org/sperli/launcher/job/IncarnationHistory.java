package org.sperli.launcher.job;

import java.time.InstantSource;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import org.sperli.ErrorCode;
import org.sperli.jobspec.JobDescription.HostEntry;
import org.sperli.launcher.report.LineTimestamps;
import org.sperli.launcher.report.RunReport;

/**
 * What each incarnation of a job did, as {@link JobSupervisor} tells it, for the run report and the summary line:
 * when it began and how long it took, how it ended and why, and per rank its host, where it ran, its exit status, the
 * H code of its last stderr line ({@link RankStatus}) and how long it ran. "When" is read from a wall clock (ISO-8601
 * UTC), "how long" from a monotonic one; both are injected. Thread-safe: ranks end on their own threads.
 */
public final class IncarnationHistory {
    private final InstantSource clock;
    private final LongSupplier nanoClock;
    private final List<RunReport.Incarnation> ended = new ArrayList<>();
    private final Map<RankProcess, Times> times = new IdentityHashMap<>();
    private long incarnation;
    private String startedAt;
    private long beganNs;

    public IncarnationHistory(InstantSource clock, LongSupplier nanoClock) {
        this.clock = clock;
        this.nanoClock = nanoClock;
    }

    /** Incarnation {@code number} begins, before its hosts are made ready. */
    synchronized void begin(long number) {
        incarnation = number;
        startedAt = LineTimestamps.FORMAT.format(clock.instant());
        beganNs = nanoClock.getAsLong();
        times.clear();
    }

    /** A rank of the current incarnation was started; its end is timed when it comes. */
    synchronized void started(RankProcess p) {
        Times t = new Times(nanoClock.getAsLong());
        times.put(p, t);
        p.exited().whenComplete((status, error) -> t.exitedNs = nanoClock.getAsLong());
    }

    /**
     * The current incarnation ended, its ranks at {@code hosts} (index = rank) and those of them started in
     * {@code ranks}, all ended or given up; {@code reasonOrNull} is the failure that ended it.
     */
    synchronized void end(List<HostEntry> hosts, List<RankProcess> ranks, RunReport.Result result,
                          String reasonOrNull) {
        List<RunReport.Rank> rows = new ArrayList<>();
        for (int rank = 0; rank < hosts.size(); rank++) {
            HostEntry e = hosts.get(rank);
            rows.add(new RunReport.Rank(rank, e.host(), e.port(), null, null, "not started", null, null, null));
        }
        for (RankProcess p : ranks) {
            rows.set(p.rank(), row(hosts.get(p.rank()), p));
        }
        long durationMs = (nanoClock.getAsLong() - beganNs) / 1_000_000;
        ended.add(new RunReport.Incarnation(incarnation, startedAt, durationMs, result, reasonOrNull, rows));
    }

    /** Every incarnation ended so far, in order. */
    public synchronized List<RunReport.Incarnation> incarnations() {
        return List.copyOf(ended);
    }

    private RunReport.Rank row(HostEntry e, RankProcess p) {
        String last = p.lastStderrLine();
        Integer status = p.isAlive() ? null : statusOf(p);
        ErrorCode code = RankStatus.leadingCode(last);
        Times t = times.get(p);
        Long durationMs = null;
        if (t != null && status != null) {
            // Its end may be seen here a moment before the callback that times it has run.
            long exitedNs = t.exitedNs >= 0 ? t.exitedNs : nanoClock.getAsLong();
            durationMs = (exitedNs - t.startedNs) / 1_000_000;
        }
        String words = status == null ? "not seen to end" : RankStatus.describe(status, last);
        return new RunReport.Rank(p.rank(), e.host(), e.port(), p.where(), status, words,
                code == null ? null : code.name(), last.isEmpty() ? null : last, durationMs);
    }

    private static int statusOf(RankProcess p) {
        try {
            return p.exited().getNow(-1);
        } catch (RuntimeException e) {
            return RankProcess.LOST;
        }
    }

    /** When one rank started and ended, on the monotonic clock. */
    private static final class Times {
        final long startedNs;
        volatile long exitedNs = -1;

        Times(long startedNs) {
            this.startedNs = startedNs;
        }
    }
}
