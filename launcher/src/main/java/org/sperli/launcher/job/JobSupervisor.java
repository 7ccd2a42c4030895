package org.sperli.launcher.job;

import java.io.IOException;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.sperli.identity.JobKit;
import org.sperli.jobspec.DescriptionLine;
import org.sperli.jobspec.JobDescription.HostEntry;
import org.sperli.jobspec.RefusedHostPolicy;
import org.sperli.launcher.exit.ExitCodes;
import org.sperli.launcher.exit.LauncherException;
import org.sperli.launcher.report.Console;
import org.sperli.launcher.report.RunReport;

/**
 * Runs one job to its end: starts every rank of an incarnation, waits, and when a rank fails (or the job aborts, which
 * makes every rank fail) ends the others and starts the whole job again with incarnation + 1, the same job id, CA and
 * key, at most {@code restartMax} times. Before each incarnation every SSH host is made ready; a rank whose host cannot
 * be reached moves to another listed host that the policy allows ({@link HostPlan#relocate}).
 *
 * <p>Ending ranks: when one rank failed, the others first have up to {@link #SETTLE} to end by themselves, as they do
 * once its ABORT or its closed connections reach them, so that each reports its own code (a checkpoint refused on
 * every rank shows as such, not as ranks the launcher stopped). A rank that failed before it was connected to every
 * peer gets no settling: some peers have no connection to hear it on, and would only wait for their setup bound.
 * Then SIGTERM to each rank still running (a rank turns it into ABORT reason 8), up to {@link #TERMINATE_GRACE}
 * for all of them to go, then a kill, then up to {@link #KILL_WAIT}; a rank whose host does not answer within
 * {@link #REACH_PROBE} (a host cut off the network) is said and not waited for. {@link #stop} (Ctrl-C, SIGTERM on the
 * launcher) does the same from another thread, without the settling, and no restart follows. The failure is said at
 * once, before the others are ended; the next incarnation asks every SSH session whether it still answers first, and
 * moves the ranks of a host that does not (see {@code SshRanks.prepare}).
 *
 * <p>Not restarted, because another try cannot help: a rank that refused its description or jar (status 2), and a
 * rank command the shell could not run (126, 127). Those end the job with {@link ExitCodes#START_FAILED}.
 */
public final class JobSupervisor {
    /** How long the other ranks have to end by themselves after one failed. */
    public static final Duration SETTLE = Duration.ofSeconds(2);
    /** How long ranks have after SIGTERM before they are killed. */
    public static final Duration TERMINATE_GRACE = Duration.ofSeconds(5);
    /** How long a rank's host gets to answer before the rank is taken as cut off and not waited for. */
    public static final Duration REACH_PROBE = Duration.ofSeconds(2);
    /** How long killed ranks have to be gone. */
    public static final Duration KILL_WAIT = Duration.ofSeconds(5);
    /** How often the wait for ranks looks at a stop request. */
    private static final long POLL_MS = 100;
    /** The name under which the local ranks are judged, whichever local name the host list gives them. */
    private static final String LOCAL_HOST = "localhost";

    private final HostPlan plan;
    private final RefusedHostPolicy policy;
    private final int restartMax;
    private final boolean forceSsh;
    private final RankStarter local;
    private final RankStarter remote;
    private final Console console;
    private final LaunchProgress progress;
    private final LaunchTimeline timeline;
    private final InstantSource clock;
    private final IncarnationHistory history;
    private final Set<String> unreachable = new HashSet<>();
    /** How many local ranks this host was judged for: the plan's, judged before the start, until ranks move here. */
    private int localReadyFor;
    private volatile boolean stopRequested;
    private JobKit kit;

    /**
     * The result of a job: the launcher's exit status and what to say about it. What each incarnation did is in the
     * {@link IncarnationHistory}.
     */
    public record Result(int exitStatus, String outcome) {
    }

    /**
     * @param remote  starter for hosts that are not local; may be null when every host of the plan runs locally
     * @param history hears of every incarnation, rank start and end (the run report)
     */
    public JobSupervisor(HostPlan plan, JobKit kit, RefusedHostPolicy policy, int restartMax, boolean forceSsh,
                         RankStarter local, RankStarter remote, Console console, LaunchTimeline timeline,
                         InstantSource clock, IncarnationHistory history) {
        this.plan = plan;
        this.kit = kit;
        this.localReadyFor = plan.localRanks(forceSsh);
        this.policy = policy;
        this.restartMax = restartMax;
        this.forceSsh = forceSsh;
        this.local = local;
        this.remote = remote;
        this.console = console;
        this.progress = new LaunchProgress(console);
        this.timeline = timeline;
        console.onRankPhase((rank, phase) -> {
            progress.phase(rank, phase);
            timeline.phase(rank, phase);
        });
        this.clock = clock;
        this.history = history;
    }

    /** Asks the job to end: every rank is stopped and no restart follows. Safe from any thread. */
    public void stop() {
        stopRequested = true;
    }

    /** The kit as it is now (ranks may have moved). */
    public synchronized JobKit kit() {
        return kit;
    }

    /** Runs incarnations until the job completes, fails for good, or is stopped. */
    public Result run() {
        long incarnation = 0;
        String lastFailure = "no rank started";
        while (incarnation <= restartMax) {
            if (stopRequested) {
                return stopped();
            }
            incarnation++;
            history.begin(incarnation);
            try {
                prepareHosts();
            } catch (LauncherException e) {
                history.end(kit().hosts(), List.of(), RunReport.Result.FAILED, e.getMessage());
                return new Result(e.exitCode(), e.getMessage());
            }
            List<RankProcess> ranks = new ArrayList<>();
            Failure failure;
            progress.begin(incarnation, kit().size());
            timeline.begin(incarnation, kit().size());
            try {
                failure = startAll(incarnation, ranks);
                if (failure == null) {
                    failure = await(ranks);
                }
                if (failure != null && !failure.stopped()) {
                    // Said at once: ending the other ranks can take seconds when a host stopped answering.
                    console.note(failure.describe() + "; ending the other ranks");
                }
                if (failure != null && !failure.stopped() && !failure.permanent()
                        && progress.peersWillHear(failure.rank())) {
                    settle(ranks);
                }
            } finally {
                progress.end();
                endAll(ranks);
                timeline.lines().forEach(console::detail);
            }
            history.end(kit().hosts(), ranks, failure == null ? RunReport.Result.COMPLETED
                    : failure.stopped() ? RunReport.Result.STOPPED : RunReport.Result.FAILED,
                    failure == null ? null : failure.describe());
            if (failure == null) {
                return new Result(ExitCodes.COMPLETED, "completed");
            }
            if (failure.stopped()) {
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
     * Makes every host of the current host list ready for its ranks: the SSH hosts all at once, moving the ranks of
     * hosts that cannot be reached to others, and then each host whose ranks grew by such moves once more, judged for
     * its new number (a host that was ready included), until none has more ranks than it was made ready for. The
     * local ranks are judged last, when moves made them more than the launcher judged before the start.
     */
    private void prepareHosts() {
        Map<String, Integer> readyFor = new HashMap<>();
        while (true) {
            Map<String, List<Integer>> pending = remoteHosts();
            pending.entrySet().removeIf(e -> e.getValue().size() <= readyFor.getOrDefault(e.getKey(), 0));
            if (pending.isEmpty()) {
                break;
            }
            pending.forEach((host, ports) -> readyFor.put(host, ports.size()));
            for (Map.Entry<String, HostUnreachableException> lost
                    : HostPreparation.prepare(remote, pending).entrySet()) {
                console.note(lost.getValue().getMessage());
                unreachable.add(lost.getKey());
                moveRanksOff(lost.getKey(), lost.getValue());
            }
        }
        List<Integer> localPorts = localPorts();
        if (localPorts.size() > localReadyFor) {
            try {
                local.prepare(LOCAL_HOST, localPorts);
            } catch (HostUnreachableException e) {
                throw LauncherException.startFailed(e.getMessage(), e);
            }
            localReadyFor = localPorts.size();
        }
    }

    /** The ports of the ranks of the current host list that run as local processes. */
    private List<Integer> localPorts() {
        return kit().hosts().stream().filter(e -> HostPlan.runsLocally(e.host(), forceSsh)).map(HostEntry::port)
                .toList();
    }

    /** The SSH hosts of the current host list, in its order, each with the ports of the ranks it runs. */
    private Map<String, List<Integer>> remoteHosts() {
        Map<String, List<Integer>> hosts = new LinkedHashMap<>();
        for (HostEntry e : kit().hosts()) {
            if (!HostPlan.runsLocally(e.host(), forceSsh)) {
                hosts.computeIfAbsent(e.host(), h -> new ArrayList<>()).add(e.port());
            }
        }
        if (!hosts.isEmpty() && remote == null) {
            throw new IllegalStateException("remote hosts " + hosts.keySet() + " but no SSH starter");
        }
        return hosts;
    }

    private synchronized void moveRanksOff(String host, HostUnreachableException cause) {
        for (int rank = 0; rank < kit.size(); rank++) {
            List<HostEntry> current = kit.hosts();
            if (!current.get(rank).host().equals(host)) {
                continue;
            }
            Optional<HostEntry> to = plan.relocate(rank, current, unreachable, policy);
            if (to.isEmpty()) {
                throw LauncherException.startFailed("rank " + rank + ": " + cause.getMessage()
                        + ", and no other listed host is left to move it to", cause);
            }
            console.note("rank " + rank + " moves from " + host + " to " + to.get().host() + ":" + to.get().port());
            kit = kit.withHost(rank, to.get());
        }
    }

    /**
     * Starts every rank; returns a failure when one could not be started, else null. Every description is made
     * first, on all cores while the machine is still quiet ({@link JobKit#lines}), and then the ranks are started
     * in one go: made one by one between
     * starts, the launcher competed with the ranks already booting, and at 64 ranks the last one started 18 s after
     * the first.
     */
    private Failure startAll(long incarnation, List<RankProcess> ranks) {
        JobKit k = kit();
        DescriptionLine[] lines = k.lines(incarnation, clock.instant());
        try {
            for (int rank = 0; rank < lines.length; rank++) {
                if (stopRequested) {
                    return Failure.stoppedByOperator();
                }
                Failure failure = start(rank, incarnation, k.hosts().get(rank), lines[rank], ranks);
                if (failure != null) {
                    return failure;
                }
                progress.started();
            }
            return null;
        } finally {
            for (DescriptionLine line : lines) {
                line.wipe();
            }
        }
    }

    private Failure start(int rank, long incarnation, HostEntry entry, DescriptionLine line,
                          List<RankProcess> ranks) {
        boolean isLocal = HostPlan.runsLocally(entry.host(), forceSsh);
        try {
            RankProcess p = (isLocal ? local : remote).start(rank, incarnation, entry, line);
            timeline.processStarted(rank);
            history.started(p);
            p.exited().whenComplete((status, error) -> timeline.exited(p.rank()));
            ranks.add(p);
            return null;
        } catch (IOException e) {
            String what = "rank " + rank + " could not be started " + (isLocal ? "locally" : "on " + entry.host())
                    + ": " + e.getMessage();
            // A local command that cannot run will not run next time either; a remote host may come back.
            return isLocal ? Failure.permanentFailure(what) : Failure.restartable(what);
        }
    }

    /** Waits until every rank exited 0 (null), one failed, or a stop was requested. */
    private Failure await(List<RankProcess> ranks) {
        BlockingQueue<RankProcess> ended = new LinkedBlockingQueue<>();
        for (RankProcess p : ranks) {
            p.exited().whenComplete((status, error) -> ended.add(p));
        }
        int completed = 0;
        while (completed < ranks.size()) {
            if (stopRequested) {
                return Failure.stoppedByOperator();
            }
            RankProcess p;
            try {
                p = ended.poll(POLL_MS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Failure.stoppedByOperator();
            }
            if (p == null) {
                continue;
            }
            int status = status(p);
            if (status != 0) {
                return Failure.ofRank(p, status);
            }
            completed++;
        }
        return null;
    }

    /** Waits up to {@link #SETTLE} for every rank to end, or until a stop is requested. */
    private void settle(List<RankProcess> ranks) {
        long deadlineNs = System.nanoTime() + SETTLE.toNanos();
        for (RankProcess p : ranks) {
            while (!stopRequested && System.nanoTime() < deadlineNs) {
                try {
                    p.exited().get(Math.min(POLL_MS, TimeUnit.NANOSECONDS.toMillis(deadlineNs - System.nanoTime())),
                            TimeUnit.MILLISECONDS);
                    break;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                } catch (ExecutionException e) {
                    break;
                } catch (TimeoutException e) {
                    // look at the stop request, then wait on
                }
            }
        }
    }

    /**
     * SIGTERM to every rank still running, a bounded wait, then kill and another bounded wait. A rank whose host
     * stopped answering is not waited for: no signal reaches it, and the waits would only delay the restart.
     */
    private void endAll(List<RankProcess> ranks) {
        List<RankProcess> alive = ranks.stream().filter(RankProcess::isAlive).toList();
        if (alive.isEmpty()) {
            return;
        }
        alive.forEach(RankProcess::terminate);
        List<RankProcess> reachable = reachable(alive);
        if (!waitGone(reachable, TERMINATE_GRACE)) {
            for (RankProcess p : reachable) {
                if (p.isAlive()) {
                    console.detail("rank " + p.rank() + " (" + p.where() + ") still running after SIGTERM; killing it");
                    p.kill();
                }
            }
            if (!waitGone(reachable, KILL_WAIT)) {
                for (RankProcess p : reachable) {
                    if (p.isAlive()) {
                        console.note("rank " + p.rank() + " (" + p.where() + ") did not end after a kill");
                    }
                }
            }
        }
    }

    /**
     * The ranks of {@code alive} that can still be ended; the others are said, killed as far as that goes, and left.
     * Every rank is asked at once (each answer completes by itself within {@link #REACH_PROBE}), so a dead host
     * costs one probe, not one per rank.
     */
    private List<RankProcess> reachable(List<RankProcess> alive) {
        List<CompletableFuture<Boolean>> answers = alive.stream().map(p -> p.reachable(REACH_PROBE)).toList();
        List<RankProcess> reachable = new ArrayList<>();
        for (int i = 0; i < alive.size(); i++) {
            RankProcess p = alive.get(i);
            boolean answered;
            try {
                // Bounded here too: a rank kind of another making might never complete its answer.
                answered = answers.get(i).get(REACH_PROBE.toMillis() + 1000, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                answered = true;
            } catch (ExecutionException | TimeoutException e) {
                answered = false;
            }
            if (answered || !p.isAlive()) {
                reachable.add(p);
            } else {
                console.note("rank " + p.rank() + " (" + p.where() + ") cannot be reached to end it: its host does"
                        + " not answer; it is left behind");
                p.kill();
            }
        }
        return reachable;
    }

    private static boolean waitGone(List<RankProcess> ranks, Duration limit) {
        long deadlineNs = System.nanoTime() + limit.toNanos();
        for (RankProcess p : ranks) {
            long leftNs = deadlineNs - System.nanoTime();
            try {
                p.exited().get(Math.max(0, leftNs), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            } catch (ExecutionException | TimeoutException e) {
                if (p.isAlive()) {
                    return false;
                }
            }
        }
        return true;
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

    /** Why an incarnation ended; {@code rank} is the rank that failed, or -1 when no rank did. */
    private record Failure(String what, boolean stopped, boolean permanent, int rank) {
        static Failure stoppedByOperator() {
            return new Failure("stopped by the operator", true, false, -1);
        }

        static Failure permanentFailure(String what) {
            return new Failure(what, false, true, -1);
        }

        static Failure restartable(String what) {
            return new Failure(what, false, false, -1);
        }

        static Failure ofRank(RankProcess p, int status) {
            String last = p.lastStderrLine();
            String what = "rank " + p.rank() + " (" + p.where() + ") " + RankStatus.describe(status, last)
                    + (last.isEmpty() ? "" : ": " + last);
            return new Failure(what, false, RankStatus.isFinal(status), p.rank());
        }

        String describe() {
            return what;
        }
    }
}
