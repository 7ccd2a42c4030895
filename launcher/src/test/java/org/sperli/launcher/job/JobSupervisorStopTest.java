package org.sperli.launcher.job;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.sperli.identity.JobKit;
import org.sperli.jobspec.DescriptionLine;
import org.sperli.jobspec.JobDescription.HostEntry;
import org.sperli.jobspec.RankExit;
import org.sperli.jobspec.RefusedHostPolicy;
import org.sperli.jvm.Clock;
import org.sperli.launcher.exit.ExitCodes;
import org.sperli.launcher.report.Console;

/**
 * Slurm's scancel reaches a job twice: as SIGTERM to every rank (each reports status 8, stopped by the operator) and
 * as srun's word that the step was cancelled, which stops the job. Whichever reaches the launcher first, the job ends
 * as stopped (143) and is not restarted; a rank stopped alone, with no stop of the job, is a failure as before.
 */
class JobSupervisorStopTest {
    /** A rank that ends with its status when {@code exited} completes; {@code onTerminate} runs on SIGTERM. */
    private record FakeRank(int rank, CompletableFuture<Integer> exited, Runnable onTerminate) implements RankProcess {
        @Override
        public String where() {
            return "test";
        }

        @Override
        public String lastStderrLine() {
            return "";
        }

        @Override
        public void terminate() {
            onTerminate.run();
            exited.complete(RankExit.OPERATOR_STOP);
        }

        @Override
        public void kill() {
            exited.complete(128 + 9);
        }
    }

    private final StringWriter said = new StringWriter();
    private final List<Integer> starts = new ArrayList<>();

    /** A job of two local ranks; {@code ranks} makes each started rank. */
    private JobSupervisor supervisor(int restartMax, IntFunction<RankProcess> ranks) {
        HostPlan plan = HostPlan.build(List.of(new HostSpec("localhost", HostSpec.NO_PORT, "test"),
                new HostSpec("localhost", HostSpec.NO_PORT, "test")), 23000);
        JobKit kit = JobKit.create(plan.entries(), 5000, Duration.ofHours(1), Instant.now(), new SecureRandom());
        RefusedHostPolicy policy = RefusedHostPolicy.fromEnvironment(Map.of(), null, warning -> { });
        PrintWriter out = new PrintWriter(said, true);
        Console console = new Console(out, out, false, false, false);
        Clock clock = Clock.SYSTEM;
        RankStarter starter = new RankStarter() {
            @Override
            public RankProcess start(int rank, long incarnation, HostEntry entry, DescriptionLine line) {
                starts.add(rank);
                return ranks.apply(rank);
            }
        };
        return new JobSupervisor(plan, kit, policy, restartMax, false, starter, null, console,
                new LaunchTimeline(clock::nanoTime), clock, new IncarnationHistory(clock, clock::nanoTime));
    }

    private static RankProcess endedWith(int rank, int status) {
        return new FakeRank(rank, CompletableFuture.completedFuture(status), () -> { });
    }

    @Test
    void ranksStoppedBySigtermJustBeforeTheJobsStopArrivesEndTheJobAsStoppedWithoutARestart() {
        JobSupervisor supervisor = supervisor(2, rank -> endedWith(rank, RankExit.OPERATOR_STOP));
        // The word of the cancel comes after the ranks' ends, well within the launcher's wait for it.
        CompletableFuture.delayedExecutor(50, TimeUnit.MILLISECONDS).execute(supervisor::stop);

        JobSupervisor.Result result = supervisor.run();

        assertEquals(ExitCodes.TERMINATED, result.exitStatus(), said.toString());
        assertEquals("stopped by the operator", result.outcome());
        assertEquals(List.of(0, 1), starts, "no restart after the operator's stop");
    }

    @Test
    void aStopThatArrivesWhileTheIncarnationEndsEndsTheJobAsStoppedWithoutARestart() {
        JobSupervisor[] supervisor = {null};
        // Rank 0 fails; while the launcher ends rank 1 (SIGTERM), the operator's stop arrives. No restart is left, so
        // nothing after this incarnation looks at the stop again.
        supervisor[0] = supervisor(0, rank -> rank == 0 ? endedWith(0, RankExit.PROGRAM_FAILED)
                : new FakeRank(rank, new CompletableFuture<>(), () -> supervisor[0].stop()));

        JobSupervisor.Result result = supervisor[0].run();

        assertEquals(ExitCodes.TERMINATED, result.exitStatus(), said.toString());
        assertEquals(List.of(0, 1), starts, "no restart after the operator's stop");
    }

    @Test
    void aRankStoppedBySigtermWithNoStopOfTheJobIsAFailureThatIsRestarted() {
        JobSupervisor.Result result = supervisor(1, rank -> endedWith(rank, RankExit.OPERATOR_STOP)).run();

        assertEquals(ExitCodes.JOB_FAILED, result.exitStatus(), said.toString());
        assertEquals(List.of(0, 1, 0, 1), starts, "incarnation 2 started after the failure");
    }
}
