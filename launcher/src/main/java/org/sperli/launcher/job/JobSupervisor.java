package org.sperli.launcher.job;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.sperli.identity.JobKit;
import org.sperli.jobspec.RankExit;
import org.sperli.jobspec.RefusedHostPolicy;
import org.sperli.jvm.Clock;
import org.sperli.launcher.exit.ExitCodes;
import org.sperli.launcher.exit.LauncherException;
import org.sperli.launcher.report.Console;
import org.sperli.launcher.report.RunReport;

/**
 * Runs one job to its end: starts every rank of an incarnation, waits, and when a rank fails (or the job aborts, which
 * makes every rank fail) ends the others and starts the whole job again with incarnation + 1, the same job id, CA and
 * key, at most {@code restartMax} times. Before each incarnation every SSH host is made ready; a rank whose host cannot
 * be reached moves to another listed host that the policy allows ({@link HostPlan#relocate}; {@code HostReadiness}).
 *
 * <p>Ending ranks ({@code RankEnding}): when one rank failed, the others first have a few seconds to end by
 * themselves, as they do once its ABORT or its closed connections reach them, so that each reports its own code (a
 * checkpoint refused on every rank shows as such, not as ranks the launcher stopped). A rank that failed before it
 * was connected to every peer gets no settling: some peers have no connection to hear it on, and would only wait for
 * their setup bound. Then SIGTERM to each rank still running, a bounded wait, a kill, another bounded wait; a rank
 * whose host does not answer (a host cut off the network) is said and not waited for. {@link #stop} (Ctrl-C, SIGTERM
 * on the launcher) does the same from another thread, without the settling, and no restart follows. The failure is
 * said at once, before the others are ended; the next incarnation asks every SSH session whether it still answers
 * first, and moves the ranks of a host that does not (see {@code SshRanks.prepare}).
 *
 * <p>Not restarted, because another try cannot help: a rank that refused its description or jar (status 2), and a
 * rank command the shell could not run (126, 127). Those end the job with {@link ExitCodes#START_FAILED}.
 */
public final class JobSupervisor {
    /** How often the wait for ranks looks at a stop request. */
    private static final long POLL_MS = 100;
    /** How long a failure that only reports another's waits for the rank whose own failure it was. */
    static final Duration CAUSE_WAIT = Duration.ofMillis(500);

    private final int restartMax;
    private final Console console;
    private final LaunchProgress progress;
    private final LaunchTimeline timeline;
    private final IncarnationHistory history;
    private final HostReadiness hosts;
    private final IncarnationStart starts;
    private final RankEnding ending;
    /** Open until {@link #stop}: what a wait for the operator's stop waits on (see {@link #stopFollows}). */
    private final CountDownLatch stopSignal = new CountDownLatch(1);

    /**
     * The result of a job: the launcher's exit status and what to say about it. What each incarnation did is in the
     * {@link IncarnationHistory}.
     */
    public record Result(int exitStatus, String outcome) {
    }

    /**
     * @param remote    starter for hosts that are not local; may be null when every host of the plan runs locally
     * @param clock     the launcher's clock: the time the descriptions carry, and every wait and duration
     * @param history   hears of every incarnation, rank start and end (the run report)
     */
    private final Clock clock;

    public JobSupervisor(HostPlan plan, JobKit kit, RefusedHostPolicy policy, int restartMax, boolean forceSsh,
                         RankStarter local, RankStarter remote, Console console, LaunchTimeline timeline,
                         Clock clock, IncarnationHistory history) {
        this.restartMax = restartMax;
        this.console = console;
        this.progress = new LaunchProgress(console, clock::nanoTime);
        this.timeline = timeline;
        console.onRankPhase((rank, phase) -> {
            progress.phase(rank, phase);
            timeline.phase(rank, phase);
        });
        this.history = history;
        this.hosts = new HostReadiness(plan, kit, policy, forceSsh, local, remote, console);
        this.starts = new IncarnationStart(forceSsh, local, remote, progress, timeline, clock, history);
        this.ending = new RankEnding(console, clock::nanoTime);
        this.clock = clock;
    }

    /** Asks the job to end: every rank is stopped and no restart follows. Safe from any thread. */
    public void stop() {
        stopSignal.countDown();
    }

    /** The kit as it is now (ranks may have moved). */
    public JobKit kit() {
        return hosts.kit();
    }

    /** Runs incarnations until the job completes, fails for good, or is stopped. */
    public Result run() {
        long incarnation = 0;
        String lastFailure = "no rank started";
        while (incarnation <= restartMax) {
            if (stopRequested()) {
                return stopped();
            }
            incarnation++;
            history.begin(incarnation);
            try {
                hosts.prepare();
            } catch (LauncherException e) {
                history.end(kit().hosts(), List.of(), RunReport.Result.FAILED, e.getMessage());
                return new Result(e.exitCode(), e.getMessage());
            }
            List<RankProcess> ranks = new ArrayList<>();
            IncarnationFailure failure = runIncarnation(incarnation, ranks);
            // A stop that arrived while the incarnation ended is what ended it: under Slurm, scancel's SIGTERM reaches
            // the ranks (status 8) by another path than the word that the step was cancelled.
            boolean stopped = failure != null && (failure.stopped() || stopRequested());
            history.end(kit().hosts(), ranks, failure == null ? RunReport.Result.COMPLETED
                    : stopped ? RunReport.Result.STOPPED : RunReport.Result.FAILED,
                    failure == null ? null : failure.describe());
            if (failure == null) {
                return new Result(ExitCodes.COMPLETED, "completed");
            }
            if (stopped) {
                return stopped();
            }
            lastFailure = failure.describe();
            if (failure.permanent()) {
                return new Result(ExitCodes.START_FAILED, lastFailure);
            }
            if (incarnation <= restartMax) {
                console.note("restarting the job as incarnation " + (incarnation + 1) + " (restart " + incarnation
                        + " of " + restartMax + ")");
            }
        }
        return new Result(ExitCodes.JOB_FAILED, lastFailure + (restartMax == 0 ? "" : " (restarts used up)"));
    }

    /**
     * Starts the ranks of one incarnation into {@code ranks}, waits for them, and ends every rank still running;
     * returns why the incarnation ended, or null when every rank completed.
     */
    private IncarnationFailure runIncarnation(long incarnation, List<RankProcess> ranks) {
        IncarnationFailure failure;
        progress.begin(incarnation, kit().size());
        timeline.begin(incarnation, kit().size());
        try {
            failure = starts.startAll(incarnation, kit(), ranks, this::stopRequested);
            if (failure == null) {
                failure = await(ranks);
            }
            if (failure != null && !failure.stopped()) {
                // Said at once: ending the other ranks can take seconds when a host stopped answering.
                console.note(failure.describe() + "; ending the other ranks");
            }
            if (failure != null && !failure.stopped() && !failure.permanent()
                    && progress.peersWillHear(failure.rank())) {
                ending.settle(ranks, this::stopRequested);
            }
        } finally {
            progress.end();
            ending.endAll(ranks);
            timeline.lines().forEach(console::detail);
        }
        return failure;
    }

    /** Waits until every rank exited 0 (null), one failed, or a stop was requested. */
    private IncarnationFailure await(List<RankProcess> ranks) {
        BlockingQueue<RankProcess> ended = new LinkedBlockingQueue<>();
        for (RankProcess p : ranks) {
            p.exited().whenComplete((status, error) -> ended.add(p));
        }
        int completed = 0;
        while (completed < ranks.size()) {
            if (stopRequested()) {
                return IncarnationFailure.stoppedByOperator();
            }
            RankProcess p;
            try {
                p = ended.poll(POLL_MS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return IncarnationFailure.stoppedByOperator();
            }
            if (p == null) {
                continue;
            }
            int status = status(p);
            if (status == RankExit.OPERATOR_STOP && stopFollows()) {
                return IncarnationFailure.stoppedByOperator();
            }
            if (status != 0) {
                RankProcess cause = cause(p, ended);
                return IncarnationFailure.ofRank(cause, status(cause));
            }
            completed++;
        }
        return null;
    }

    /**
     * The rank to name for an incarnation's failure: {@code first}, unless it only reports another rank's failure (it
     * was aborted by a peer, or lost one) and a rank whose own failure it was ends within {@link #CAUSE_WAIT}. The
     * order in which ranks' ends reach the launcher is not the order they happened in: a killed rank's peers may be
     * reported first, and "rank 0 aborted by another rank" would hide "rank 3 was killed by signal 9".
     */
    private RankProcess cause(RankProcess first, BlockingQueue<RankProcess> ended) {
        if (!isConsequence(status(first))) {
            return first;
        }
        long deadlineNs = clock.nanoTime() + CAUSE_WAIT.toNanos();
        long leftNs;
        while ((leftNs = deadlineNs - clock.nanoTime()) > 0) {
            RankProcess p;
            try {
                p = ended.poll(leftNs, TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return first;
            }
            if (p == null) {
                break;
            }
            int status = status(p);
            if (status != 0 && !isConsequence(status)) {
                return p;
            }
        }
        return first;
    }

    /** Whether {@link #stop} was called. */
    private boolean stopRequested() {
        return stopSignal.getCount() == 0;
    }

    /**
     * Whether a stop of the job is requested within {@link #CAUSE_WAIT}, after a rank said it was stopped by a SIGTERM
     * that the launcher did not send: an operator's stop of the whole job (scancel, a revoked allocation) reaches
     * the ranks and the launcher by different paths, in either order.
     */
    private boolean stopFollows() {
        try {
            return stopSignal.await(CAUSE_WAIT.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return true;
        }
    }

    /** Whether {@code status} says a rank ended because another failed (RankExit 4, 5), not for itself. */
    private static boolean isConsequence(int status) {
        return status == RankExit.ABORTED_BY_PEER || status == RankExit.PEER_LOST;
    }

    private static Result stopped() {
        return new Result(ExitCodes.TERMINATED, "stopped by the operator");
    }

    private static int status(RankProcess p) {
        try {
            return p.exited().getNow(-1);
        } catch (RuntimeException e) {
            return RankProcess.LOST;
        }
    }
}
