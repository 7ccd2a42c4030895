package org.sperli.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sperli.ErrorCode;
import org.sperli.jobspec.RankExit;

class SperliTestKitTest {
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 8})
    void everyRankRunsAndItsLinesAreItsOwn(int ranks) {
        JobResult result = SperliTestKit.job(KitJobs.SumJob.class).ranks(ranks).quiet().run().assertCompleted();
        long sum = (long) ranks * (ranks - 1) / 2;
        for (int r = 0; r < ranks; r++) {
            assertEquals(List.of("rank " + r + " of " + ranks + " sum " + sum), result.stdout(r));
            assertEquals(List.of("to stderr from " + r), result.stderr(r));
            RankResult rank = result.rank(r);
            assertTrue(rank.completed() && rank.returned(), rank.toString());
            assertEquals(0, rank.exitStatus());
            assertNull(rank.code());
        }
        assertEquals(1, result.incarnations().size());
        assertEquals("completed", result.outcome());
    }

    @Test
    void threadsTheJobStartsPrintAsItsRank() {
        JobResult result = SperliTestKit.job(KitJobs.RingJob.class).ranks(3).args("4").quiet().run()
                .assertCompleted();
        assertEquals(List.of("helper of rank 0", "token 12"), result.stdout(0));
        assertEquals(List.of("helper of rank 2"), result.stdout(2));
    }

    @Test
    void aRankThatThrowsFailsTheJobAsARankProcessWould() {
        JobResult result = SperliTestKit.job(KitJobs.ThrowingJob::new).ranks(3).quiet().run();
        assertFalse(result.completed());
        RankResult thrower = result.rank(1);
        assertEquals(RankResult.Ending.THREW, thrower.ending());
        assertTrue(thrower.thrown() instanceof IllegalStateException);
        assertEquals(RankExit.PROGRAM_FAILED, thrower.exitStatus());
        assertTrue(thrower.lastLine().startsWith("program failed: java.lang.IllegalStateException: boom at rank 1"),
                thrower.lastLine());
        for (int r : new int[] {0, 2}) {
            // ABORT reason 7 from rank 1: the others' barrier throws H1612.
            assertEquals(ErrorCode.H1612, result.rank(r).code(), result.report());
            assertEquals(RankExit.ABORTED_BY_PEER, result.rank(r).exitStatus());
        }
        assertTrue(result.outcome().startsWith("rank 1 exited with status 3 (the program failed)"),
                result.outcome());
    }

    @Test
    void systemExitInAJobJarFailsItsRankAndNotTheTestJvm(@TempDir Path dir) throws Exception {
        Path jar = KitJobs.jar(dir, KitJobs.ExitingJob.class, KitJobs.class, KitJobs.ExitingJob.class);
        JobResult result = SperliTestKit.jar(jar).ranks(3).quiet().run();
        RankResult exiting = result.rank(1);
        assertEquals(List.of("leaving"), exiting.stdout());
        assertEquals(RankExit.PROGRAM_FAILED, exiting.exitStatus());
        assertTrue(exiting.thrown() instanceof ExitTrap.ExitCalled, String.valueOf(exiting.thrown()));
        assertEquals("program failed: it called System.exit(7) (at " + KitJobs.ExitingJob.class.getName()
                + ".run(KitJobs.java:50)) instead of returning from run", exiting.lastLine());
        assertEquals(ErrorCode.H1612, result.rank(0).code(), result.report());
        assertFalse(result.completed());
    }

    @Test
    void aJarJobsRanksHaveStaticsOfTheirOwnAClassJobsShareThem(@TempDir Path dir) throws Exception {
        Path jar = KitJobs.jar(dir, KitJobs.StaticJob.class, KitJobs.class, KitJobs.StaticJob.class);
        JobResult fromJar = SperliTestKit.jar(jar).ranks(3).quiet().run().assertCompleted();
        for (int r = 0; r < 3; r++) {
            assertEquals(List.of("runs 1"), fromJar.stdout(r));
        }
        KitJobs.StaticJob.RUNS.set(0);
        JobResult fromClass = SperliTestKit.job(KitJobs.StaticJob.class).ranks(3).quiet().run().assertCompleted();
        List<String> all = new java.util.ArrayList<>();
        for (int r = 0; r < 3; r++) {
            all.addAll(fromClass.stdout(r));
        }
        assertEquals(List.of("runs 1", "runs 2", "runs 3"), all.stream().sorted().toList());
    }

    @Test
    void aRefusedJarIsH1616AndNotRestarted(@TempDir Path dir) {
        JobResult result = SperliTestKit.jar(dir.resolve("missing.jar")).ranks(2).restartMax(3).quiet().run();
        assertEquals(1, result.incarnations().size());
        assertEquals(RankExit.REFUSED, result.rank(0).exitStatus());
        assertTrue(result.rank(0).lastLine().startsWith("H1616"), result.rank(0).lastLine());
    }

    @Test
    void aJobPastItsTimeLimitIsStopped() {
        JobResult result = SperliTestKit.job(() -> (comm, args) -> {
            if (comm.rank() == 0) {
                comm.recv(1, 9);
            } else {
                Thread.sleep(60_000);
            }
        }).ranks(2).timeout(Duration.ofSeconds(3)).quiet().run();
        assertFalse(result.completed());
        assertTrue(result.outcome().contains("time limit"), result.outcome());
        assertEquals(RankResult.Ending.STOPPED, result.rank(1).ending(), result.report());
        assertEquals(RankExit.OPERATOR_STOP, result.rank(1).exitStatus());
        assertEquals(List.of(), result.leftRunning());
    }
}
