package org.sperli.launcher.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sperli.checkpoint.CommitFile;
import org.sperli.checkpoint.CommitSignatures;
import org.sperli.crypto.CompositeSig;
import org.sperli.launcher.LauncherHarness;
import org.sperli.launcher.demo.JobJars;
import org.sperli.launcher.testjob.OpenReceiveCheckpointJob;

/**
 * Checkpoints broken in each way the protocol names, through the real {@code sperli run} with 1, 2 and 4 local ranks:
 * a rank process that dies at each step of a checkpoint, a flipped byte in a rank file, in a COMMIT and in a buddy
 * copy, a COMMIT signed with another key, and a checkpoint with an open receive. Each run either resumes the epoch
 * the protocol picks and prints the uninterrupted result, or fails with the exact code and the launcher's status 1.
 *
 * <p>A checkpoint of another size (H1623) cannot be reached through this launcher: a restart keeps the size, and a new
 * launch makes a new job id and key. It is tested at the runtime ({@code ResumeTest}) for other launchers' sake.
 */
class CheckpointFaultsTest {
    /** Job arguments of a run that crashes: 30 steps, a checkpoint every 10, no sleep. */
    private static final String STEPS = "30";
    private static final String EVERY = "10";
    /** State ballast of a run that crashes: 3 MiB, so that a buddy copy takes three CKPT_DATA chunks. */
    private static final String BALLAST = Integer.toString(3 << 20);

    @TempDir
    Path dir;

    private CheckpointRuns runs;
    private Path checkpoints;

    @BeforeEach
    void setUp() {
        runs = new CheckpointRuns(dir);
        checkpoints = dir.resolve("checkpoints");
    }

    @AfterEach
    void cleanUp() {
        LauncherHarness.killDescendants();
    }

    /**
     * One rank process ends at a step of checkpoint 2 (Runtime.halt, as SIGKILL would): without a COMMIT of epoch 2
     * the restart resumes epoch 1; once rank 0 has written it, epoch 2. Either way the job ends with the result of an
     * uninterrupted run. A crash after the first chunk of the last rank's buddy copy leaves rank 0 without that copy,
     * so without a COMMIT.
     */
    @ParameterizedTest(name = "{0} ranks, rank {1} dies at {2}: epoch {3}")
    @CsvSource({
        "2, 1, BEFORE_ACK,           1",
        "4, 3, BEFORE_ACK,           1",
        "1, 0, AFTER_ACKS,           1",
        "4, 0, AFTER_ACKS,           1",
        "2, 1, BUDDY_CHUNK_SENT,     1",
        "4, 3, BUDDY_CHUNK_SENT,     1",
        "1, 0, AFTER_COMMIT_WRITTEN, 2",
        "2, 0, AFTER_COMMIT_WRITTEN, 2"})
    void aRankThatDiesDuringCheckpoint2ResumesTheNewestCommittedEpoch(int ranks, int crashing, String step,
                                                                       long expectedEpoch) throws IOException {
        String expected = runs.uninterruptedResult(ranks, Integer.parseInt(STEPS));

        CheckpointRuns.Resumed resumed = runs.crashAndResume(checkpoints, ranks, STEPS, EVERY, "0",
                Integer.toString(crashing), step, "2", BALLAST);

        String out = resumed.run().out();
        assertTrue(out.contains("[rank " + crashing + "] crashing at " + step + " of epoch 2"), out);
        assertTrue(Pattern.compile("rank " + crashing + " \\(local pid \\d+\\) was killed by signal 9")
                .matcher(resumed.run().err()).find(), resumed.run().err());
        assertEquals(expectedEpoch, resumed.epoch(), "the epoch incarnation 2 resumed");
        assertTrue(resumed.run().err().contains("resume: rank 0: resuming epoch " + expectedEpoch),
                resumed.run().err());
        assertEquals(expected, resumed.result(), "the resumed run's result");
    }

    /** A flipped state byte in a rank file: H1620 at resume, and the rank loads its buddy's copy instead. */
    @Test
    void aFlippedByteInARankFileIsH1620AndTheBuddyCopyIsLoaded() throws IOException {
        String expected = runs.uninterruptedResult(4, 20);

        CheckpointRuns.Resumed resumed = runs.killAndResume(checkpoints, 4, 2, 1,
                epoch -> CheckpointRuns.flipLastByte(rankFile(epoch, 2)), "20", EVERY, "100");

        String err = resumed.run().err();
        assertTrue(err.contains("resume: rank 2: its rank file of epoch " + resumed.epoch() + " is refused"), err);
        assertTrue(err.contains("H1620"), err);
        assertTrue(err.contains("fetching it from rank 3"), err);
        assertEquals(expected, resumed.result(), "the resumed run's result");
    }

    /** A flipped byte in the only COMMIT of the newest epoch (H1621 there): the restart falls back to the one before. */
    @Test
    void aFlippedByteInTheNewestCommitFallsBackToThePreviousEpoch() throws IOException {
        String expected = runs.uninterruptedResult(4, 40);

        CheckpointRuns.Killed killed = runs.kill(checkpoints, 4, 1, 2,
                epoch -> CheckpointRuns.flipLastByte(epochDir(epoch).resolve("COMMIT")), "40", EVERY, "100");

        String err = killed.run().err();
        assertEquals(0, killed.run().exitCode(), killed.run().out() + err);
        assertTrue(err.contains("resume: rank 0: passing over epoch " + killed.epoch()), err);
        assertTrue(err.contains("H1621"), err);
        assertTrue(err.contains("resume: rank 0: resuming epoch " + (killed.epoch() - 1)), err);
        assertEquals(expected, CheckpointRuns.result(killed.run().out()), "the resumed run's result");
    }

    /** A flipped byte in a buddy copy nobody needs changes nothing: every rank loads its own file. */
    @Test
    void aFlippedByteInABuddyCopyThatIsNotNeededChangesNothing() throws IOException {
        String expected = runs.uninterruptedResult(2, 20);

        CheckpointRuns.Resumed resumed = runs.killAndResume(checkpoints, 2, 1, 1,
                epoch -> CheckpointRuns.flipLastByte(epochDir(epoch).resolve("rank-1.ckpt.buddy")), "20", EVERY,
                "100");

        assertFalse(resumed.run().err().contains("fetching it from"), resumed.run().err());
        assertEquals(expected, resumed.result(), "the resumed run's result");
    }

    /**
     * A deleted rank file whose buddy copy has a flipped byte: the fetched copy is refused too, no epoch can be
     * resumed, and incarnation 2 ends with H1622 on every rank; the launcher, out of restarts, exits with status 1.
     */
    @Test
    void aDeletedRankFileWhoseBuddyCopyIsFlippedEndsTheJobWithH1622() throws IOException {
        CheckpointRuns.Killed killed = runs.kill(checkpoints, 2, 1, 1, epoch -> {
            delete(rankFile(epoch, 1));
            CheckpointRuns.flipLastByte(epochDir(epoch).resolve("rank-1.ckpt.buddy"));
        }, "20", EVERY, "100");

        assertJobFailedWith(killed.run(), "H1622", 2);
    }

    /** Every COMMIT re-signed with a key that is not the job's: H1621 on every rank, nothing resumed. */
    @Test
    void aCommitSignedWithAnotherKeyIsRefusedWithH1621() throws IOException {
        CompositeSig.KeyPair other = CompositeSig.generate(new SecureRandom());

        CheckpointRuns.Killed killed = runs.kill(checkpoints, 2, 1, 1, epoch -> {
            for (long e = 1; e <= epoch; e++) {
                resign(epochDir(e).resolve("COMMIT"), other);
            }
        }, "20", EVERY, "100");

        assertJobFailedWith(killed.run(), "H1621", 2);
    }

    /** A checkpoint while one rank still has an irecv open fails on every rank with H1624. */
    @Test
    void aCheckpointWithAnOpenReceiveFailsOnEveryRankWithH1624() throws IOException {
        Path jar = JobJars.write(dir.resolve("open-receive.jar"), OpenReceiveCheckpointJob.class);

        LauncherHarness.Run run = LauncherHarness.run(LauncherHarness.environment(Map.of()), "run",
                "--checkpoint-dir", checkpoints.toString(), "--hosts", CheckpointRuns.hosts(2), jar.toString());

        assertFalse(run.out().contains("checkpoint returned"), run.out());
        assertJobFailedWith(run, "H1624", 2);
        LauncherHarness.assertNoProcessLeft();
    }

    /** The launcher exited with 1 and every rank's last stderr line starts with {@code code}. */
    private static void assertJobFailedWith(LauncherHarness.Run run, String code, int ranks) {
        assertEquals(1, run.exitCode(), run.out() + run.err());
        for (int r = 0; r < ranks; r++) {
            assertTrue(run.err().contains("[rank " + r + "] " + code), "rank " + r + ": " + run.err());
        }
    }

    private Path epochDir(long epoch) {
        return CheckpointRuns.epochDir(checkpoints, epoch);
    }

    private Path rankFile(long epoch, int rank) {
        return epochDir(epoch).resolve("rank-" + rank + ".ckpt");
    }

    private static void delete(Path file) {
        try {
            Files.delete(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Rewrites {@code commit} with the same fields and a valid signature by {@code key}. */
    private static void resign(Path commit, CompositeSig.KeyPair key) {
        try {
            CommitFile genuine = CommitFile.read(ByteBuffer.wrap(Files.readAllBytes(commit)));
            CommitFile forged = CommitSignatures.sign(CommitFile.unsigned(genuine.epoch(), genuine.jobId(),
                    genuine.rankFileSha256()), key.secretKey());
            Files.write(commit, forged.toBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
