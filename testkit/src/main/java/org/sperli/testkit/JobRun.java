package org.sperli.testkit;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.sperli.checkpoint.CheckpointDirectory;
import org.sperli.identity.JobDescriptionValidator;
import org.sperli.identity.JobKit;
import org.sperli.jobspec.JobDescription;
import org.sperli.jobspec.RankExit;
import org.sperli.jobspec.RefusedHostPolicy;
import org.sperli.jvm.Clock;
import org.sperli.runtime.RankConfig;
import org.sperli.runtime.RankConfigs;
import org.sperli.trace.ChromeTrace;
import org.sperli.trace.RankTrace;
import org.sperli.trace.TraceClock;
import org.sperli.trace.TracePart;
import org.sperli.transport.LeakDetection;

/**
 * One kit run, as the launcher's supervisor runs a job: a job identity made once ({@link JobKit}: job id, CA, key),
 * then incarnations until one completes, one fails for good (a refused jar), the restarts are used up or the time is.
 * Each incarnation gets free ports, every rank a fresh description checked as a rank checks its own
 * ({@link JobDescriptionValidator}) and a configuration made from it as the rank daemon makes it
 * ({@link RankConfigs#fromDescription}). When a rank fails, the others have {@link #SETTLE} to end by themselves (as
 * they do once its ABORT or its closed connections reach them), then the kit stops them.
 */
final class JobRun {
    /** How long the other ranks have to end by themselves after one failed. */
    static final Duration SETTLE = Duration.ofSeconds(5);
    /** How long stopped ranks have to end before the kit gives up on their threads. */
    static final Duration STOP_GRACE = Duration.ofSeconds(5);
    /** Validity of the run's CA and certificates: longer than any test. */
    private static final Duration LIFETIME = Duration.ofDays(1);
    private static final String HOST = "127.0.0.1";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final KitJob spec;
    private final Clock clock;
    /** The trace clock of every rank of the run: one anchor, so that their tracks line up exactly. */
    private final TraceClock traceClock;
    private final List<String> leftRunning = new ArrayList<>();
    private final List<TracePart> traceParts = new ArrayList<>();
    private PrintStream echoOut;
    private PrintStream echoErr;
    /** The checkpoint directory the ranks see (on the full disk when the run fills it), or null. */
    private Path checkpointDir;

    /** A run of {@code spec} whose ranks, deadlines, certificates and traces read {@code clock}. */
    JobRun(KitJob spec, Clock clock) {
        this.spec = spec;
        this.clock = clock;
        this.traceClock = new TraceClock(clock);
    }

    JobResult run() {
        Path dir = spec.checkpointDirOrNull();
        if (dir != null) {
            String problem = CheckpointDirectory.problem(dir);
            if (problem != null) {
                throw new IllegalArgumentException("checkpoint directory " + dir + ": " + problem);
            }
            checkpointDir = spec.diskBytesLeft() >= 0 ? FullDisk.of(dir, spec.diskBytesLeft()) : dir;
        }
        // As in a rank process (org.sperli.rankd.Main): the threads here stand for ranks.
        LeakDetection.offUnlessAsked();
        PrintStream out = OutputRouting.acquire();
        echoOut = spec.echo() ? out : null;
        echoErr = spec.echo() ? OutputRouting.originalErr() : null;
        try (ExitWatch watch = ExitWatch.start()) {
            return incarnations(watch);
        } finally {
            OutputRouting.release();
        }
    }

    private JobResult incarnations(ExitWatch watch) {
        long deadline = clock.nanoTime() + spec.timeoutBound().toNanos();
        List<Integer> ports = KitPorts.take(spec.size());
        try {
            JobKit kit = JobKit.create(entries(ports), spec.silenceLimit().toMillis(), LIFETIME, clock.instant(),
                    RANDOM);
            List<Incarnation> done = new ArrayList<>();
            for (long incarnation = 1; ; incarnation++) {
                if (incarnation > 1) {
                    KitPorts.release(ports);
                    ports = KitPorts.take(spec.size());
                    for (int r = 0; r < ports.size(); r++) {
                        kit = kit.withHost(r, new JobDescription.HostEntry(HOST, ports.get(r)));
                    }
                }
                Incarnation result = incarnation(kit, incarnation, deadline, watch);
                done.add(result);
                String end = end(result, incarnation, deadline);
                if (end != null) {
                    Path trace = writeTrace(kit.job().hex());
                    return new JobResult(kit.job().hex(), done, end, result.completed(), leftRunning, trace);
                }
            }
        } finally {
            KitPorts.release(ports);
        }
    }

    /** Writes the trace file when the run is traced (atomically: a temporary name, then a rename); its path. */
    private Path writeTrace(String jobId) {
        Path file = spec.traceOrNull();
        if (file == null) {
            return null;
        }
        Path absolute = file.toAbsolutePath();
        Path tmp = absolute.resolveSibling(absolute.getFileName() + ".tmp");
        try {
            try (Writer out = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                ChromeTrace.write(traceParts, jobId, out);
            }
            Files.move(tmp, absolute, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the trace " + file + ": " + e.getMessage(), e);
        }
        return absolute;
    }

    /** How the run ends after {@code result}, or null when the job restarts. */
    private String end(Incarnation result, long incarnation, long deadline) {
        if (result.completed()) {
            return "completed";
        }
        boolean permanent = result.ranks().stream().anyMatch(r -> r.exitStatus() == RankExit.REFUSED);
        if (permanent || clock.nanoTime() - deadline >= 0) {
            return result.failureOrNull();
        }
        if (incarnation > spec.restarts()) {
            return result.failureOrNull() + (spec.restarts() == 0 ? "" : " (restarts used up)");
        }
        return null;
    }

    private static List<JobDescription.HostEntry> entries(List<Integer> ports) {
        return ports.stream().map(p -> new JobDescription.HostEntry(HOST, p)).toList();
    }

    private Incarnation incarnation(JobKit kit, long incarnation, long deadline, ExitWatch watch) {
        List<RankLife> lives = new ArrayList<>();
        RefusedHostPolicy policy = RefusedHostPolicy.fromEnvironment(Map.of(), null, warning -> { });
        Instant now = clock.instant();
        for (int r = 0; r < kit.size(); r++) {
            List<String> log = Collections.synchronizedList(new ArrayList<>());
            JobDescription description = kit.description(r, incarnation, now);
            RankConfig config;
            try {
                config = RankConfigs.fromDescription(JobDescriptionValidator.validate(description, policy,
                        now.toEpochMilli()), checkpointDir, spec.checkpointWaitOrNull(), log::add, clock)
                        .withCollectives(spec.collectives());
            } finally {
                description.destroySecrets();
            }
            RankTrace trace = spec.traceOrNull() == null ? null
                    : new RankTrace(r, kit.size(), incarnation, HOST, spec.traceEvents(), traceClock);
            lives.add(new RankLife(r, incarnation, config, log, spec.source(), spec.arguments(),
                    new RankSink(r, echoOut, echoErr), spec.faults().forRank(r), trace));
        }
        lives.forEach(life -> watch.add(life.start()));
        Incarnation result = await(incarnation, lives, deadline);
        for (RankLife life : lives) {
            if (life.ended().isDone() && life.tracePart() != null) {
                traceParts.add(life.tracePart());
            }
        }
        return result;
    }

    /** Waits for every rank's end; after a failure or past the deadline, stops the ranks still running. */
    private Incarnation await(long incarnation, List<RankLife> lives, long deadline) {
        BlockingQueue<RankLife> ended = new LinkedBlockingQueue<>();
        lives.forEach(life -> life.ended().whenComplete((result, e) -> ended.add(life)));
        RankResult[] results = new RankResult[lives.size()];
        String failure = null;
        List<RankResult> order = new ArrayList<>();
        long settleEnd = Long.MAX_VALUE;
        long stopEnd = Long.MAX_VALUE;
        int finished = 0;
        while (finished < lives.size()) {
            long now = clock.nanoTime();
            if (stopEnd == Long.MAX_VALUE && (now - deadline >= 0 || now - settleEnd >= 0)) {
                boolean late = now - deadline >= 0;
                if (failure == null && late) {
                    failure = "the run's time limit of " + spec.timeoutBound().toSeconds() + " s passed";
                }
                stopAll(lives, results, late ? "stopped by the test kit: the run's time limit passed"
                        : "stopped by the test kit after the job failed");
                stopEnd = now + STOP_GRACE.toNanos();
            } else if (now - stopEnd >= 0) {
                break;
            }
            long wake = Math.min(Math.min(deadline, settleEnd), stopEnd);
            RankLife life = poll(ended, wake - now);
            if (life == null) {
                continue;
            }
            finished++;
            RankResult r = life.ended().join();
            results[life.rank()] = r;
            if (!r.completed()) {
                order.add(r);
                settleEnd = Math.min(settleEnd, clock.nanoTime() + SETTLE.toNanos());
            }
        }
        List<RankResult> all = leftovers(incarnation, lives, results);
        Optional<RankResult> cause = cause(order);
        String why = cause.filter(r -> r.ending() != RankResult.Ending.STOPPED).map(JobRun::describe)
                .orElse(failure != null ? failure : cause.map(JobRun::describe).orElse(null));
        return new Incarnation(incarnation, all, why);
    }

    private static void stopAll(List<RankLife> lives, RankResult[] results, String why) {
        for (RankLife life : lives) {
            if (results[life.rank()] == null) {
                life.stop(why);
            }
        }
    }

    /** The results, with one for every rank whose thread would not end (and that thread named as left running). */
    private List<RankResult> leftovers(long incarnation, List<RankLife> lives, RankResult[] results) {
        List<RankResult> all = new ArrayList<>();
        for (RankLife life : lives) {
            RankResult r = results[life.rank()];
            if (r == null) {
                Thread t = life.thread();
                leftRunning.add(t.getName() + " (incarnation " + incarnation + "), at "
                        + List.of(t.getStackTrace()).stream().limit(3).toList());
                r = new RankResult(life.rank(), incarnation, List.of(), List.of(), List.of(), true, null, null,
                        RankExit.OPERATOR_STOP, "did not end when stopped by the test kit", RankResult.Ending.STOPPED,
                        0);
            }
            all.add(r);
        }
        return all;
    }

    /**
     * The rank whose end says best why the incarnation failed: a rank the kit killed, else one whose program failed,
     * else one that failed for another reason of its own, else one aborted by a peer; the first to end among equals
     * (the launcher names the first rank to fail, which is most often the same).
     */
    private static Optional<RankResult> cause(List<RankResult> failedInOrder) {
        return failedInOrder.stream().min(Comparator.comparingInt(JobRun::weight));
    }

    private static int weight(RankResult r) {
        return switch (r.ending()) {
            case KILLED -> 0;
            case THREW -> r.exitStatus() == RankExit.ABORTED_BY_PEER ? 3 : 1;
            case JOB_FAILED -> r.exitStatus() == RankExit.ABORTED_BY_PEER || r.exitStatus() == RankExit.PEER_LOST ? 3
                    : 2;
            default -> 4;
        };
    }

    /** A rank's failure as the launcher says it. */
    static String describe(RankResult r) {
        String how = r.exitStatus() == RankResult.KILLED_STATUS ? "was killed by signal 9 (by the test kit)"
                : "exited with status " + r.exitStatus() + " (" + RankExit.meaning(r.exitStatus()) + ")";
        return "rank " + r.rank() + " " + how + (r.lastLine() == null ? "" : ": " + r.lastLine());
    }

    private static RankLife poll(BlockingQueue<RankLife> ended, long nanos) {
        try {
            return ended.poll(Math.max(1, nanos), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the job ran", e);
        }
    }
}
