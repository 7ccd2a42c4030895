package org.sperli.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sperli.runtime.CheckpointFixture.assertRestored;
import static org.sperli.runtime.CheckpointFixture.checkpoints;
import static org.sperli.runtime.CheckpointFixture.jobDirEntries;
import static org.sperli.runtime.CheckpointFixture.layout;
import static org.sperli.runtime.CheckpointFixture.resume;
import static org.sperli.runtime.CheckpointFixture.run;
import static org.sperli.runtime.CheckpointFixture.state;
import static org.sperli.runtime.CheckpointFixture.temporaryFiles;
import static org.sperli.runtime.CheckpointFixture.writing;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sperli.Restored;
import org.sperli.checkpoint.CommitFile;
import org.sperli.checkpoint.CommitSignatures;
import org.sperli.checkpoint.EpochLayout;
import org.sperli.checkpoint.EpochStore;
import org.sperli.checkpoint.RankFileReader;

class CheckpointRoundTripTest {
    @TempDir
    Path root;

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 4})
    void checkpointsThenResumesEveryRanksStateAtIncarnation2(int size) {
        TestJob job = TestJob.withCheckpoints(size, root);
        List<List<Long>> epochs = run(job, rt -> checkpoints(rt, 2)).stream().map(TestJob.Outcome::get).toList();
        for (List<Long> e : epochs) {
            assertEquals(List.of(1L, 2L), e);
        }

        List<Optional<Restored>> restored = resume(job.restart());

        assertRestored(restored, 2);
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 4})
    void leavesEachRankItsFileTheBuddyCopyOfItsPredecessorAndAVerifiedCommit(int size) {
        TestJob job = TestJob.withCheckpoints(size, root);
        run(job, rt -> checkpoints(rt, 1)).forEach(TestJob.Outcome::get);

        for (int r = 0; r < size; r++) {
            EpochLayout layout = layout(job, r);
            byte[] commitBytes = readAll(layout.commit(1));
            CommitFile commit = CommitSignatures.verify(ByteBuffer.wrap(commitBytes), TestJob.jobKey().publicKey(),
                    job.job, 1, size);
            RankFileReader.Checked own = RankFileReader.check(layout.rankFile(1, r), job.job, 1, r, size, commit,
                    true);
            assertArrayEquals(state(r, 1), own.stateOrNull());
            int source = EpochLayout.buddySourceOf(r, size);
            TreeSet<String> expected = new TreeSet<>(List.of("COMMIT", "rank-" + r + ".ckpt"));
            if (size > 1) {
                RankFileReader.check(layout.buddyFile(1, source), job.job, 1, source, size, commit, false);
                expected.add("rank-" + source + ".ckpt.buddy");
            }
            assertEquals(expected, names(layout.epochDir(1)), "files of rank " + r);
        }
        assertArrayEquals(TestJob.jobKey().publicKey(),
                readAll(layout(job, 0).jobDir().resolve(EpochStore.JOB_PUBLIC_KEY)));
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 4})
    void keepsOnlyTheNewestTwoEpochsAndLeavesLaterEpochsAndOtherNamesAlone(int size) throws IOException {
        TestJob job = TestJob.withCheckpoints(size, root);
        for (int r = 0; r < size; r++) {
            Files.createDirectories(layout(job, r).epochDir(9));
            Files.write(layout(job, r).epochDir(9).resolve("rank-" + r + ".ckpt"), new byte[] {1});
            Files.createDirectories(layout(job, r).jobDir().resolve("notes"));
        }

        run(job, rt -> checkpoints(rt, 4)).forEach(TestJob.Outcome::get);

        for (int r = 0; r < size; r++) {
            TreeSet<String> expected = new TreeSet<>(List.of("3", "4", "9", "notes"));
            if (r == 0) {
                expected.add(EpochStore.JOB_PUBLIC_KEY);
            }
            assertEquals(expected, jobDirEntries(job, r), "job directory of rank " + r);
        }
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 4})
    void leavesNoTemporaryFileAfterACompletedCheckpoint(int size) {
        TestJob job = TestJob.withCheckpoints(size, root);
        run(job, rt -> checkpoints(rt, 2)).forEach(TestJob.Outcome::get);

        assertEquals(List.of(), temporaryFiles(root));
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2})
    void numbersTheFirstCheckpointAfterAResumeFromTheResumedEpoch(int size) {
        TestJob job = TestJob.withCheckpoints(size, root);
        run(job, rt -> checkpoints(rt, 2)).forEach(TestJob.Outcome::get);

        List<Long> next = run(job.restart(), rt -> {
            Restored restored = rt.restored().orElseThrow();
            byte[] more = restored.state().clone();
            return rt.checkpoint(writing(more));
        }).stream().map(TestJob.Outcome::get).toList();

        for (long e : next) {
            assertEquals(3L, e);
        }
        assertTrue(Files.isRegularFile(layout(job, 0).commit(3)));
        assertFalse(Files.exists(layout(job, 0).epochDir(1)), "epoch 1 is older than 3 - 1");
    }

    private static byte[] readAll(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static TreeSet<String> names(Path dir) {
        try (var entries = Files.list(dir)) {
            return entries.map(p -> p.getFileName().toString()).collect(
                    java.util.stream.Collectors.toCollection(TreeSet::new));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
