package org.sperli.launcher.command;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import org.sperli.checkpoint.CheckpointDirectory;
import org.sperli.crypto.CryptoEngine;
import org.sperli.identity.JobKit;
import org.sperli.jobspec.JobDescription.HostEntry;
import org.sperli.jobspec.RefusedHostPolicy;
import org.sperli.launcher.ExitCodes;
import org.sperli.launcher.LaunchEnvironment;
import org.sperli.launcher.LauncherException;
import org.sperli.launcher.job.ClassDataArchive;
import org.sperli.launcher.job.HostPlan;
import org.sperli.launcher.job.JobControl;
import org.sperli.launcher.job.JobJar;
import org.sperli.launcher.job.JobSupervisor;
import org.sperli.launcher.job.LaunchTimeline;
import org.sperli.launcher.job.LocalRanks;
import org.sperli.launcher.job.RankCommand;
import org.sperli.launcher.job.RankExports;
import org.sperli.launcher.job.SilenceLimit;
import org.sperli.launcher.job.SlotFill;
import org.sperli.launcher.report.Console;
import org.sperli.launcher.report.JobSummary;
import org.sperli.launcher.ssh.SshRanks;
import org.sperli.launcher.ssh.SshSettings;
import org.sperli.launcher.ssh.SshTransport;
import org.sperli.protocol.Limits;
import org.sperli.runtime.CheckpointSettings;

/**
 * The steps every command that runs a job takes, in this order, so that nothing starts before every check passed:
 * the refused-host policy, the host plan (syntax, ports), the refused hosts (H1615, exit 3), the jar, then the job's
 * identity, the starters and the supervisor; at the end, the summary.
 */
final class JobRunner {
    /** Validity of the job CA and rank certificates: longer than any job should run, restarts included. */
    static final Duration JOB_LIFETIME = Duration.ofDays(30);

    /** Everything a job needs from the command line. */
    record Request(SlotFill hosts, LaunchOptions launch, int restartMax, Path denyFileOrNull,
                   boolean forceSsh, boolean acceptNewHostKeys, Path sshDirOrNull, Path jar, List<String> jobArgs,
                   Path checkpointDirOrNull, Long checkpointWaitSecondsOrNull, RankExports exports) {
        /** A job of local ranks only, without a checkpoint directory or -x variables ({@code sperli demo}). */
        Request(SlotFill hosts, LaunchOptions launch, Path jar) {
            this(hosts, launch, 0, null, false, false, null, jar, List.of(), null, null, RankExports.none());
        }
    }

    private JobRunner() {
    }

    static int run(Request request, LaunchEnvironment environment, JobControl control, Console console) {
        LaunchTimeline timeline = new LaunchTimeline(System::nanoTime);
        LaunchOptions launch = request.launch();
        if (launch.silenceMs != null
                && (launch.silenceMs < Limits.MIN_SILENCE_MS || launch.silenceMs > Limits.MAX_SILENCE_MS)) {
            throw LauncherException.usage("--silence-ms " + launch.silenceMs + " is not in " + Limits.MIN_SILENCE_MS
                    + ".." + Limits.MAX_SILENCE_MS);
        }
        if (request.restartMax() < 0) {
            throw LauncherException.usage("--restart-max " + request.restartMax() + " is negative");
        }
        RefusedHostPolicy policy = RefusedHostPolicy.fromEnvironment(environment.variables(),
                request.denyFileOrNull(), console::note);
        HostPlan plan = HostPlan.build(request.hosts(), launch.portBase);
        List<String> refused = plan.refusals(policy);
        if (!refused.isEmpty()) {
            refused.forEach(console::note);
            console.note("nothing was started: " + refused.size() + " refused host" + (refused.size() == 1 ? "" : "s"));
            return ExitCodes.HOST_REFUSED;
        }
        JobJar jar = JobJar.open(request.jar());
        int localRanks = (int) plan.entries().stream()
                .filter(e -> HostPlan.runsLocally(e.host(), request.forceSsh())).count();
        if (localRanks > 0) {
            checkCheckpointDir(request.checkpointDirOrNull());
        }
        Long waitSeconds = request.checkpointWaitSecondsOrNull();
        if (waitSeconds != null && (waitSeconds < 1 || waitSeconds > CheckpointSettings.MAX_WAIT_LIMIT.toSeconds())) {
            throw LauncherException.usage("--checkpoint-wait " + waitSeconds + " is not in 1.."
                    + CheckpointSettings.MAX_WAIT_LIMIT.toSeconds() + " seconds");
        }
        RankCommand command = RankCommand.of(launch.rankd, environment.variables())
                .withCheckpointDir(request.checkpointDirOrNull(), waitSeconds).withExports(request.exports());
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
        command = command.withTlsEngine(asked ? engine : null);
        long startNs = System.nanoTime();
        SilenceLimit silence = SilenceLimit.of(launch.silenceMs, localRanks, Runtime.getRuntime().availableProcessors());
        silence.note().ifPresent(console::note);
        JobKit kit = JobKit.create(plan.entries(), silence.ms(), JOB_LIFETIME, Instant.now(), new SecureRandom());
        timeline.keysMade();
        console.detail("job " + kit.job() + ": " + plan.size() + " ranks, jar " + jar.path() + " (sha256 "
                + jar.sha256Hex() + ", job class " + jar.jobClass() + ")");
        for (int rank = 0; rank < plan.size(); rank++) {
            HostEntry e = plan.entries().get(rank);
            console.detail("rank " + rank + ": " + e.host() + ":" + e.port()
                    + (HostPlan.runsLocally(e.host(), request.forceSsh()) ? " (local process)" : " (ssh)"));
        }
        LocalRanks local = new LocalRanks(command, jar, request.jobArgs(), request.denyFileOrNull(),
                environment.variables(), console);
        SshRanks remote = localRanks < plan.size()
                ? new SshRanks(SshTransport.start(SshSettings.of(request.sshDirOrNull(), request.acceptNewHostKeys()),
                        console::detail), command, jar, request.jobArgs(), console)
                : null;
        JobSupervisor supervisor = new JobSupervisor(plan, kit, policy, request.restartMax(), request.forceSsh(),
                local, remote, console, timeline, InstantSource.system());
        control.register(supervisor);
        JobSupervisor.Result result = null;
        try {
            result = supervisor.run();
        } finally {
            if (remote != null) {
                remote.close();
            }
            if (result != null) {
                Duration took = Duration.ofNanos(System.nanoTime() - startNs);
                console.note(new JobSummary(kit.job().hex(), plan.size(), result.incarnationsUsed(),
                        request.restartMax(), took, result.exitStatus(), result.outcome(), result.lastStatuses())
                        .text());
            }
            control.finished(supervisor);
        }
        if (local.startedAny()) {
            ClassDataArchive.ofThisJvm().flatMap(ClassDataArchive::makeIfMissing).ifPresent(console::note);
        }
        return result.exitStatus();
    }

    /** The checkpoint directory as local ranks would see it; SSH ranks check their own host's (H1616). */
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
