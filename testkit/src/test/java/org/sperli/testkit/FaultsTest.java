package org.sperli.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sperli.ErrorCode;
import org.sperli.jobspec.RankExit;

class FaultsTest {
    @Test
    void aRankKilledAtACallEndsAsASigkilledProcessAndItsPeersLoseIt() {
        // Rank 2 of a ring makes two calls a lap (recv, send): its fifth call is the receive of lap 3.
        JobResult result = SperliTestKit.job(KitJobs.RingJob.class).ranks(4).args("20").killAtCall(2, 5).quiet()
                .run();
        assertFalse(result.completed());
        RankResult killed = result.rank(2);
        assertEquals(RankResult.Ending.KILLED, killed.ending());
        assertEquals(RankResult.KILLED_STATUS, killed.exitStatus());
        assertNull(killed.lastLine(), "a SIGKILLed process says nothing");
        for (int r : new int[] {0, 1, 3}) {
            // No BYE and no ABORT: the others see its connections end.
            assertEquals(ErrorCode.H1613, result.rank(r).code(), result.report());
            assertEquals(RankExit.PEER_LOST, result.rank(r).exitStatus());
        }
        assertTrue(result.outcome().startsWith("rank 2 was killed by signal 9"), result.outcome());
    }

    @Test
    void aJobKilledInACheckpointRestartsAndResumesToTheSameResult(@TempDir Path dir) throws IOException {
        String expected = SperliTestKit.job(KitJobs.CountingJob.class).ranks(4).args("12", "2")
                .checkpointDir(Files.createDirectory(dir.resolve("whole"))).quiet().run().assertCompleted()
                .stdout(0).get(0).split(" from")[0];
        JobResult result = SperliTestKit.job(KitJobs.CountingJob.class).ranks(4).args("12", "2")
                .checkpointDir(Files.createDirectory(dir.resolve("killed"))).restartMax(1).killAtCheckpoint(1, 3).quiet().run().assertCompleted();
        assertEquals(2, result.incarnations().size());
        Incarnation first = result.incarnations().get(0);
        assertEquals(RankResult.Ending.KILLED, first.rank(1).ending(), result.report());
        for (int r = 0; r < 4; r++) {
            assertEquals(2, result.rank(r).incarnation());
            assertEquals(2, result.rank(r).resumedEpoch(), "epoch 3 never committed; epoch 2 did");
        }
        assertEquals(List.of(expected + " from step 4"), result.stdout(0));
    }

    @Test
    void aDelayedRankSlowsTheJobDown() {
        long start = System.nanoTime();
        JobResult result = SperliTestKit.job(KitJobs.RingJob.class).ranks(3).args("5")
                .delayMessages(1, Duration.ofMillis(100)).quiet().run().assertCompleted();
        assertTrue(System.nanoTime() - start >= Duration.ofMillis(500).toNanos(), "five sends of rank 1, 100 ms each");
        assertEquals("token 15", result.stdout(0).get(1));
    }

    @Test
    void aFullCheckpointDiskFailsTheCheckpointWithH1619(@TempDir Path dir) {
        JobResult result = SperliTestKit.job(KitJobs.CountingJob.class).ranks(3).args("6", "2").checkpointDir(dir)
                .fillCheckpointDisk(0).quiet().run();
        assertFalse(result.completed());
        // Rank 0 cannot write job.pub, fails the checkpoint (H1619) and ABORTs; the others hear that ABORT.
        assertEquals(ErrorCode.H1619, result.rank(0).code(), result.report());
        assertEquals(RankExit.CHECKPOINT_FAILED, result.rank(0).exitStatus());
        for (int r = 1; r < 3; r++) {
            assertEquals(ErrorCode.H1612, result.rank(r).code(), result.report());
        }
        assertTrue(result.outcome().startsWith("rank 0 exited with status 7"), result.outcome());
        assertTrue(result.outcome().endsWith("job.pub: No space left on device"), result.outcome());
    }

    @Test
    void aDiskThatFillsAfterTheFirstEpochFailsTheSecond(@TempDir Path dir) throws IOException {
        Path measure = Files.createDirectory(dir.resolve("measure"));
        String job = SperliTestKit.job(KitJobs.CountingJob.class).ranks(3).args("3", "2", "20000")
                .checkpointDir(measure)
                .quiet().run().assertCompleted().jobId();
        // Room for epoch 1: the files it left, and the COMMIT copies ranks 1 and 2 write under names of their own
        // before they rename them over COMMIT. Epoch 2's six files of 20 kB cannot fit in what is left.
        long commit = Files.size(measure.resolve(job).resolve("1").resolve("COMMIT"));
        long oneEpoch = bytesUnder(measure) + 2 * commit;
        Path full = Files.createDirectory(dir.resolve("full"));
        JobResult result = SperliTestKit.job(KitJobs.CountingJob.class).ranks(3).args("6", "2", "20000")
                .checkpointDir(full)
                .fillCheckpointDisk(oneEpoch).quiet().run();
        assertFalse(result.completed());
        assertTrue(Files.isRegularFile(full.resolve(result.jobId()).resolve("1").resolve("COMMIT")), result.report() + listing(full));
        // Whichever rank meets the full disk first fails the checkpoint of epoch 2 (H1619) and ABORTs.
        assertTrue(result.outcome().contains("H1619 checkpoint file is not the one expected"), result.outcome());
        assertTrue(result.outcome().endsWith("No space left on device"), result.outcome());
    }

    private static String listing(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.map(p -> p + " " + p.toFile().length()).reduce("", (a, b) -> a + "\n" + b);
        }
    }

    private static long bytesUnder(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> {
                try {
                    return Files.size(p);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).sum();
        }
    }
}
