package org.sperli.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sperli.runtime.CheckpointFixture.assertRestored;
import static org.sperli.runtime.CheckpointFixture.checkpoints;
import static org.sperli.runtime.CheckpointFixture.crashAt;
import static org.sperli.runtime.CheckpointFixture.crashAtBeforeItsAck;
import static org.sperli.runtime.CheckpointFixture.layout;
import static org.sperli.runtime.CheckpointFixture.resume;
import static org.sperli.runtime.CheckpointFixture.run;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sperli.ErrorCode;
import org.sperli.runtime.CheckpointDriver.Step;

/**
 * A rank that dies in the middle of checkpoint 2 (it ends the job as a lost peer would) leaves epoch 2 without a
 * COMMIT, except after rank 0 wrote it; the restart resumes the newest epoch with a COMMIT.
 */
class CheckpointCrashTest {
    /** Longest a crashing rank's file is held back for its crash (see {@code crashAtBeforeItsAck}). */
    private static final long HOLD_MS = 10_000;

    @TempDir
    Path root;

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 4})
    void aCrashBeforeTheAckResumesThePreviousEpoch(int size) {
        crashInEpoch2AndResume(size, size - 1, Step.BEFORE_ACK, 1);
    }

    @Test
    void aCrashOfRank0BeforeItsOwnAckResumesThePreviousEpoch() {
        crashInEpoch2AndResume(4, 0, Step.BEFORE_ACK, 1);
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 4})
    void aCrashAfterAllAcksBeforeTheCommitResumesThePreviousEpoch(int size) {
        crashInEpoch2AndResume(size, 0, Step.AFTER_ACKS, 1);
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 4})
    void aCrashDuringTheBuddyCopyToRank0ResumesThePreviousEpoch(int size) {
        // Rank 0 commits only once its own buddy copy is in, so a copy cut on its way to rank 0 means no COMMIT.
        crashInEpoch2AndResume(size, size - 1, Step.BUDDY_CHUNK_SENT, 1);
    }

    @ParameterizedTest(name = "rank {0} of 4")
    @ValueSource(ints = {0, 1, 2})
    void aCrashWhileACopyLeavesBeforeItsFileIsDurableResumesThePreviousEpoch(int crashing) {
        // Every rank but the last sends its copy while its own file is still being made durable: a rank that dies
        // then has sent no CKPT_ACK (or rank 0 no COMMIT), so the epoch cannot count. Whether the first chunk or the
        // fsync comes first is the machine's choice; the hook holds the file back until the crash, so that the test
        // checks that case every time (a crash after the ACK may let rank 0 commit, which is as correct).
        crashInEpoch2AndResume(4, rt -> crashAtBeforeItsAck(rt, crashing, Step.BUDDY_CHUNK_SENT, 2, HOLD_MS),
                crashing, 1);
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 4})
    void aCrashAfterRank0WroteTheCommitResumesTheNewEpochFromRank0sCopy(int size) {
        crashInEpoch2AndResume(size, 0, Step.AFTER_COMMIT_WRITTEN, 2);
    }

    private void crashInEpoch2AndResume(int size, int crashing, Step step, long expectedEpoch) {
        crashInEpoch2AndResume(size, rt -> crashAt(rt, crashing, step, 2), crashing, expectedEpoch);
    }

    /** Runs two checkpoints with {@code crash} installed on every rank, then checks the end and the resume. */
    private void crashInEpoch2AndResume(int size, Consumer<RankRuntime> crash, int crashing, long expectedEpoch) {
        TestJob job = TestJob.withCheckpoints(size, root);
        List<TestJob.Outcome<List<Long>>> first = run(job, rt -> {
            crash.accept(rt);
            return checkpoints(rt, 2);
        });
        CheckpointFixture.assertEveryRankFails(first, crashing, ErrorCode.H1613);
        assertEquals(expectedEpoch == 2, Files.exists(layout(job, 0).commit(2)), "COMMIT of epoch 2 at rank 0");
        for (int r = 1; r < size; r++) {
            assertFalse(Files.exists(layout(job, r).commit(2)), "rank " + r + " holds no COMMIT of epoch 2");
        }

        TestJob restarted = job.restart();
        assertRestored(resume(restarted), expectedEpoch);
        assertTrue(restarted.log.stream().anyMatch(l -> l.contains("resuming epoch " + expectedEpoch)),
                "rank 0 notes the epoch it resumes: " + restarted.log);
    }
}
