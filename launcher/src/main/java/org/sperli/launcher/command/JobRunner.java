package org.sperli.launcher.command;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.sperli.checkpoint.CheckpointDirectory;
import org.sperli.checkpoint.DurableFiles;
import org.sperli.crypto.CryptoEngine;
import org.sperli.identity.JobKit;
import org.sperli.jobspec.JobDescription.HostEntry;
import org.sperli.jobspec.RefusedHostPolicy;
import org.sperli.jvm.Clock;
import org.sperli.launcher.exit.ExitCodes;
import org.sperli.launcher.exit.LauncherException;
import org.sperli.launcher.job.ClassDataArchive;
import org.sperli.launcher.job.EphemeralPorts;
import org.sperli.launcher.job.HostMemory;
import org.sperli.launcher.job.HostPlan;
import org.sperli.launcher.job.IncarnationHistory;
import org.sperli.launcher.job.JobControl;
import org.sperli.launcher.job.JobJar;
import org.sperli.launcher.job.JobSupervisor;
import org.sperli.launcher.job.LaunchTimeline;
import org.sperli.launcher.job.LocalRanks;
import org.sperli.launcher.job.RankCommand;
import org.sperli.launcher.job.RankExports;
import org.sperli.launcher.job.RankStarter;
import org.sperli.launcher.job.SilenceLimit;
import org.sperli.launcher.job.SlotFill;
import org.sperli.launcher.report.Console;
import org.sperli.launcher.report.JobSummary;
import org.sperli.launcher.report.LineTimestamps;
import org.sperli.launcher.report.RankLineCopy;
import org.sperli.launcher.report.RankOutputFiles;
import org.sperli.launcher.report.ReportFile;
import org.sperli.launcher.report.RunReport;
import org.sperli.launcher.report.TraceFile;
import org.sperli.launcher.slurm.SlurmAllocation;
import org.sperli.launcher.slurm.SlurmRanks;
import org.sperli.launcher.ssh.SshCommand;
import org.sperli.launcher.ssh.SshRanks;
import org.sperli.launcher.ssh.SshSettings;
import org.sperli.launcher.ssh.SshTransport;
import org.sperli.protocol.Limits;
import org.sperli.runtime.CheckpointSettings;
import org.sperli.runtime.CollectiveShape;
import org.sperli.trace.RankTrace;

/**
 * The steps every command that runs a job takes, in this order, so that nothing starts before every check passed:
 * the options, the --report file, the refused-host policy, the host plan (syntax, ports), the refused hosts (H1615,
 * exit 3), the jar, what the local ranks need of this host (its memory, ports outside its ephemeral range, the
 * checkpoint directory), the --output-dir, then the job's identity, the starters and the supervisor; at the end, the
 * summary line and the report, both from one {@link RunReport}.
 */
final class JobRunner {

    /** Everything a job needs from the command line. */
    record Request(SlotFill hosts, LaunchOptions launch, int restartMax, Path denyFileOrNull, SshOptions ssh,
                   CheckpointOptions checkpoint, OutputOptions output, RankExports exports, Path jar,
                   List<String> jobArgs, SlurmAllocation slurmOrNull) {
        /** A job of local ranks only, without checkpoints, -x variables, output files or report ({@code demo}). */
        Request(SlotFill hosts, LaunchOptions launch, Path jar) {
            this(hosts, launch, 0, null, new SshOptions(), new CheckpointOptions(), new OutputOptions(),
                    RankExports.none(), jar, List.of(), null);
        }

        /**
         * --ssh: localhost and 127.0.0.1 too are reached over SSH; under Slurm every rank goes through its node's
         * agent, whatever the node's address.
         */
        boolean forceSsh() {
            return ssh.force || slurmOrNull != null;
        }
    }

    private JobRunner() {
    }

    /**
     * The launch's timeline, which starts now. How long before it the launcher's JVM started is read only when the
     * breakdown is printed (-v), as the management classes cost a cold JVM some milliseconds.
     */
    private static LaunchTimeline timelineFromNow(Clock clock) {
        Instant launch = clock.instant();
        return new LaunchTimeline(clock::nanoTime, () -> Duration.between(
                Instant.ofEpochMilli(ManagementFactory.getRuntimeMXBean().getStartTime()), launch));
    }

    static int run(Request request, LaunchEnvironment environment, JobControl control, Console console) {
        // The launcher's one clock: the waits, the timeline, the reports, and the times of certificates and tokens.
        Clock clock = environment.clock();
        LaunchTimeline timeline = timelineFromNow(clock);
        LaunchOptions launch = request.launch();
        Optional<SshCommand> ssh = checkOptions(request, environment);
        OutputOptions output = request.output();
        Path reportOrNull = output.reportOrNull == null ? null : ReportFile.check(output.reportOrNull);
        TraceFile traceOrNull = traceFile(output, console);
        RefusedHostPolicy policy = RefusedHostPolicy.fromEnvironment(environment.variables(),
                request.denyFileOrNull(), console::note);
        HostPlan plan = HostPlan.build(request.hosts(), launch.portBase);
        if (refusedAny(plan.refusals(policy), console)) {
            return ExitCodes.HOST_REFUSED;
        }
        JobJar jar = JobJar.open(request.jar());
        int localRanks = plan.localRanks(request.forceSsh());
        checkThisHost(plan.localPorts(request.forceSsh()), launch.rankd == null, request.checkpoint().dirOrNull);
        Path outputDirOrNull = output.dirOrNull == null ? null : RankOutputFiles.prepare(output.dirOrNull);
        RankCommand command = rankCommand(request, environment, console);
        long startNs = clock.nanoTime();
        String launchedAt = LineTimestamps.FORMAT.format(clock.instant());
        JobKit kit = jobKit(plan, launch, localRanks, clock, console);
        timeline.keysMade();
        describePlan(kit, plan, jar, request.forceSsh(), request.slurmOrNull() != null, console);
        RankOutputFiles files = outputDirOrNull == null ? null : outputFiles(outputDirOrNull, kit, console);
        LocalRanks local = new LocalRanks(command, jar, request.jobArgs(), request.denyFileOrNull(),
                environment.variables(), console);
        Remote remote = Remote.of(request, ssh, plan, command, jar, environment, console);
        IncarnationHistory history = new IncarnationHistory(clock, clock::nanoTime);
        JobSupervisor supervisor = new JobSupervisor(plan, kit, policy, request.restartMax(), request.forceSsh(),
                local, remote.starter(), console, timeline, clock, history);
        control.register(supervisor);
        remote.onCancelled(supervisor::stop);
        JobSupervisor.Result result = null;
        Throwable failure = null;
        try {
            result = supervisor.run();
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            local.close();
            remote.close();
            if (files != null) {
                console.copyRankLinesTo(RankLineCopy.NONE);
                files.close();
            }
            RunReport report = RunReport.of(kit.job().hex(), jar.path().toString(), jar.sha256Hex(), plan.size(),
                    request.restartMax(), launchedAt, (clock.nanoTime() - startNs) / 1_000_000,
                    result != null ? result.exitStatus() : ExitCodes.of(failure),
                    result != null ? result.outcome() : "the launcher failed: " + failure, history.incarnations());
            say(report, result != null, reportOrNull, traceOrNull, console);
            control.finished(supervisor);
        }
        if (local.startedAny() || remote.starter() != null) {
            makeStartCaches(result.exitStatus() == ExitCodes.COMPLETED, console);
        }
        return result.exitStatus();
    }

    /**
     * The class-data archives or AOT cache that the job prepared, made now (said in one line): the ranks' after a job
     * with local ranks, the launcher's after any job that started ranks (an SSH-only job too).
     */
    private static void makeStartCaches(boolean jobCompleted, Console console) {
        ClassDataArchive.ofThisJvm().flatMap(archive -> archive.makeIfMissing(jobCompleted)).ifPresent(console::note);
    }

    /** Keys, certificates and tokens of a new job, with the silence limit its local ranks allow (said if longer). */
    private static JobKit jobKit(HostPlan plan, LaunchOptions launch, int localRanks, Clock clock,
                                 Console console) {
        SilenceLimit silence = SilenceLimit.of(launch.silenceMs, plan.size(), localRanks,
                Runtime.getRuntime().availableProcessors());
        silence.note().ifPresent(console::note);
        return JobKit.create(plan.entries(), silence.ms(), JobKit.JOB_LIFETIME, clock.instant(), new SecureRandom());
    }

    /** Says each refused host and that nothing started; whether there was one. */
    private static boolean refusedAny(List<String> refused, Console console) {
        refused.forEach(console::note);
        if (!refused.isEmpty()) {
            console.note("nothing was started: " + refused.size() + " refused host" + (refused.size() == 1 ? "" : "s"));
        }
        return !refused.isEmpty();
    }

    /**
     * The starter of the job's SSH ranks, or null when every rank of {@code plan} is local: through the operator's ssh
     * program when given, else the built-in client, its transport started. Each host's probe checks that the plan's
     * host names resolve there.
     */
    private static SshRanks sshRanks(Request request, Optional<SshCommand> sshCommand, HostPlan plan,
                                     RankCommand command, JobJar jar, LaunchEnvironment environment, Console console) {
        if (plan.localRanks(request.forceSsh()) == plan.size()) {
            return null;
        }
        List<String> jobHosts = plan.entries().stream().map(HostEntry::host).toList();
        if (sshCommand.isPresent()) {
            return new SshRanks(sshCommand.get(), jobHosts, command, jar, request.jobArgs(), console,
                    request.launch().remoteJava, environment.variables(), environment.clock()::nanoTime);
        }
        SshOptions ssh = request.ssh();
        SshSettings settings = SshSettings.of(ssh.dirOrNull, ssh.acceptNewHostKeys, environment.variables());
        SshTransport transport = SshTransport.start(settings, console::detail, console::note, environment.clock());
        return new SshRanks(transport, settings, jobHosts,
                command, jar, request.jobArgs(), console, request.launch().remoteJava, environment.variables(),
                environment.clock()::nanoTime);
    }

    /** What starts the ranks that are not local: over SSH, or through Slurm, or nothing when every rank is local. */
    private record Remote(SshRanks ssh, SlurmRanks slurm) {
        static Remote of(Request request, Optional<SshCommand> ssh, HostPlan plan, RankCommand command, JobJar jar,
                         LaunchEnvironment environment, Console console) {
            return request.slurmOrNull() != null
                    ? new Remote(null, slurmRanks(request, plan, command, jar, environment, console))
                    : new Remote(sshRanks(request, ssh, plan, command, jar, environment, console), null);
        }

        RankStarter starter() {
            return slurm != null ? slurm : ssh;
        }

        /** Under Slurm: a cancelled step or job stops {@code stop}'s job as the operator's stop. */
        void onCancelled(Runnable stop) {
            if (slurm != null) {
                slurm.onCancelled(stop);
            }
        }

        void close() {
            if (ssh != null) {
                ssh.close();
            }
            if (slurm != null) {
                slurm.close();
            }
        }
    }

    /**
     * The starter of a job inside a Slurm allocation: every rank goes through its node's agent, which one srun step
     * starts. MUNGE is checked first, so that a node without it is one line and exit status 2.
     */
    private static SlurmRanks slurmRanks(Request request, HostPlan plan, RankCommand command, JobJar jar,
                                         LaunchEnvironment environment, Console console) {
        SlurmAllocation allocation = request.slurmOrNull();
        List<SlurmAllocation.Node> nodes = allocation.nodes().stream()
                .filter(n -> plan.entries().stream().anyMatch(e -> e.host().equals(n.address()))).toList();
        return new SlurmRanks(allocation, nodes, command, jar, request.jobArgs(), request.denyFileOrNull(),
                environment.variables(), console, environment.clock());
    }

    /** With -v: the job, its jar and where each rank runs. */
    private static void describePlan(JobKit kit, HostPlan plan, JobJar jar, boolean forceSsh, boolean slurm,
                                     Console console) {
        console.detail("job " + kit.job() + ": " + plan.size() + " ranks, jar " + jar.path() + " (sha256 "
                + jar.sha256Hex() + ", job class " + jar.jobClass() + ")");
        for (int rank = 0; rank < plan.size(); rank++) {
            HostEntry e = plan.entries().get(rank);
            console.detail("rank " + rank + ": " + e.host() + ":" + e.port()
                    + (HostPlan.runsLocally(e.host(), forceSsh) ? " (local process)" : slurm ? " (slurm)" : " (ssh)"));
        }
    }

    /** --output-dir: the job's directory of rank files, which the console copies every rank line to from now on. */
    private static RankOutputFiles outputFiles(Path dir, JobKit kit, Console console) {
        RankOutputFiles files = RankOutputFiles.create(dir, kit.job().hex(), console::note);
        console.copyRankLinesTo(files);
        console.note("rank output also in " + files.jobDirectory() + "/INCARNATION/rank.N/{stdout,stderr}");
        return files;
    }

    /** The --trace file, the summary line when the job ran to a result, and the --report file however it ended. */
    private static void say(RunReport report, boolean ranToAResult, Path reportOrNull, TraceFile traceOrNull,
                            Console console) {
        writeTrace(traceOrNull, report.jobId(), console);
        if (ranToAResult) {
            console.note(JobSummary.text(report));
        }
        if (reportOrNull != null) {
            writeReport(reportOrNull, report, console);
        }
    }

    /** --trace: the file checked as the --report is, and the console's trace lines going to it; else null. */
    private static TraceFile traceFile(OutputOptions output, Console console) {
        if (output.traceOrNull == null) {
            return null;
        }
        TraceFile trace = new TraceFile(ReportFile.check(output.traceOrNull, "--trace"));
        console.onRankTrace(trace::line);
        return trace;
    }

    /** The --trace file at the end (when asked for); one that cannot be written is said, not fatal. */
    private static void writeTrace(TraceFile trace, String jobId, Console console) {
        if (trace == null) {
            return;
        }
        try {
            int parts = trace.write(jobId);
            console.note("trace of " + parts + " rank part" + (parts == 1 ? "" : "s") + " in " + trace.path()
                    + " (open it in https://ui.perfetto.dev or chrome://tracing)");
        } catch (IOException | RuntimeException e) {
            console.note("--trace " + trace.path() + ": cannot write the trace: "
                    + (e instanceof IOException io ? DurableFiles.reason(io) : String.valueOf(e)));
        }
    }

    /**
     * Ranges of the options that need no file or host to judge, and the operator's ssh program
     * ({@code --ssh-command}, else SPERLI_SSH_COMMAND), which is returned.
     */
    private static Optional<SshCommand> checkOptions(Request request, LaunchEnvironment environment) {
        LaunchOptions launch = request.launch();
        if (launch.silenceMs != null
                && (launch.silenceMs < Limits.MIN_SILENCE_MS || launch.silenceMs > Limits.MAX_SILENCE_MS)) {
            throw LauncherException.usage("--silence-ms " + launch.silenceMs + " is not in " + Limits.MIN_SILENCE_MS
                    + ".." + Limits.MAX_SILENCE_MS);
        }
        if (request.restartMax() < 0) {
            throw LauncherException.usage("--restart-max " + request.restartMax() + " is negative");
        }
        Integer traceEvents = request.output().traceEventsOrNull;
        if (traceEvents != null && (traceEvents < 1 || traceEvents > RankTrace.MAX_EVENTS)) {
            throw LauncherException.usage("--trace-events " + traceEvents + " is not in 1.." + RankTrace.MAX_EVENTS);
        }
        if (traceEvents != null && request.output().traceOrNull == null) {
            throw LauncherException.usage("--trace-events needs --trace FILE");
        }
        Long waitSeconds = request.checkpoint().waitSecondsOrNull;
        if (waitSeconds != null && (waitSeconds < 1 || waitSeconds > CheckpointSettings.MAX_WAIT_LIMIT.toSeconds())) {
            throw LauncherException.usage("--checkpoint-wait " + waitSeconds + " is not in 1.."
                    + CheckpointSettings.MAX_WAIT_LIMIT.toSeconds() + " seconds");
        }
        if (request.slurmOrNull() != null) {
            SlurmRanks.requireMunge(environment.variables());
        }
        return SshCommand.of(request.ssh().commandOrNull, environment.variables(), request.ssh().acceptNewHostKeys);
    }

    /** The rank command with every option that travels to ranks; says which TLS engine the ranks will take. */
    private static RankCommand rankCommand(Request request, LaunchEnvironment environment, Console console) {
        LaunchOptions launch = request.launch();
        OutputOptions output = request.output();
        RankCommand command = RankCommand.of(launch.rankd, environment.variables())
                .withCheckpointDir(request.checkpoint().dirOrNull, request.checkpoint().waitSecondsOrNull)
                .withExports(request.exports())
                .withCollectives(collectives(launch.collectives))
                .withTrace(output.traceOrNull == null ? null
                        : output.traceEventsOrNull != null ? output.traceEventsOrNull : RankTrace.DEFAULT_EVENTS);
        String engine;
        try {
            engine = CryptoEngine.requested(launch.tlsEngine, environment.variables());
        } catch (IllegalArgumentException e) {
            throw LauncherException.usage((launch.tlsEngine != null ? "--tls-engine: " : CryptoEngine.VARIABLE + ": ")
                    + e.getMessage());
        }
        // Said once the job is sure to start, so that a refusal stays the one line an operator reads.
        console.note(CryptoEngine.plannedNote(engine));
        // Passed on only when asked, so that another rank implementation sees the documented arguments.
        boolean asked = launch.tlsEngine != null || environment.variables().containsKey(CryptoEngine.VARIABLE);
        return command.withTlsEngine(asked ? engine : null);
    }

    /** {@code --collectives} as the ranks read it, or null when not given; anything but star or mesh is refused. */
    private static String collectives(String shapeOrNull) {
        if (shapeOrNull == null) {
            return null;
        }
        try {
            return CollectiveShape.of(shapeOrNull).name().toLowerCase(Locale.ROOT);
        } catch (IllegalArgumentException e) {
            throw LauncherException.usage("--" + e.getMessage());
        }
    }

    /** The report at the end; a file that could be written at the start and no longer can is said, not fatal. */
    private static void writeReport(Path file, RunReport report, Console console) {
        try {
            ReportFile.write(file, report);
        } catch (IOException | RuntimeException e) {
            console.note("--report " + file + ": cannot write the report: "
                    + (e instanceof IOException io ? DurableFiles.reason(io) : String.valueOf(e)));
        }
    }

    /**
     * What the local ranks, on {@code ports}, need of this host: memory enough to hold them when they are the rank
     * daemon's JVMs ({@link HostMemory}; {@code --rankd CMD} may start anything), ports outside its ephemeral range
     * whatever the rank command ({@link EphemeralPorts}), and the checkpoint directory as they would see it (SSH
     * ranks check their own host's, H1616).
     */
    private static void checkThisHost(List<Integer> ports, boolean rankDaemon, Path checkpointDirOrNull) {
        int localRanks = ports.size();
        if (rankDaemon) {
            HostMemory.localRefusal(localRanks, HostMemory.MEMINFO).ifPresent(why -> {
                throw LauncherException.usage(why);
            });
        }
        EphemeralPorts.localRefusal(ports, EphemeralPorts.ofThisHost()).ifPresent(why -> {
            throw LauncherException.usage(why);
        });
        if (localRanks > 0) {
            checkCheckpointDir(checkpointDirOrNull);
        }
    }

    /** The checkpoint directory as local ranks would see it. */
    private static void checkCheckpointDir(Path dir) {
        if (dir == null) {
            return;
        }
        String problem = CheckpointDirectory.problem(dir);
        if (problem != null) {
            throw LauncherException.usage("--checkpoint-dir " + dir + ": " + problem);
        }
    }
}
