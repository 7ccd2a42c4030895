package org.sperli.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sperli.runtime.CheckpointFixture.assertEveryRankFails;
import static org.sperli.runtime.CheckpointFixture.assertJobEnded;
import static org.sperli.runtime.CheckpointFixture.assertRestored;
import static org.sperli.runtime.CheckpointFixture.checkpoints;
import static org.sperli.runtime.CheckpointFixture.delete;
import static org.sperli.runtime.CheckpointFixture.flipByte;
import static org.sperli.runtime.CheckpointFixture.layout;
import static org.sperli.runtime.CheckpointFixture.resume;
import static org.sperli.runtime.CheckpointFixture.run;
import static org.sperli.runtime.CheckpointFixture.state;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sperli.ErrorCode;
import org.sperli.Restored;
import org.sperli.SperliException;
import org.sperli.checkpoint.CommitFile;
import org.sperli.checkpoint.CommitSignatures;
import org.sperli.checkpoint.RankFileHeader;
import org.sperli.checkpoint.RankFileReader;
import org.sperli.crypto.CompositeSig;
import org.sperli.protocol.CommitLayout;

class ResumeTest {
    @TempDir
    Path root;

    /** A job of {@code size} ranks that committed epochs 1..n and then stopped. */
    private TestJob checkpointed(int size, int n) {
        TestJob job = TestJob.withCheckpoints(size, root);
        run(job, rt -> checkpoints(rt, n)).forEach(TestJob.Outcome::get);
        return job;
    }

    /** Resumes and returns, by rank, whether the state came from the buddy's copy (RESUME status 1). */
    @SuppressWarnings("unchecked")
    private static List<Boolean> resumeFromBuddyFlags(TestJob restarted, long epoch) {
        List<TestJob.Outcome<Object[]>> out = run(restarted, rt -> new Object[] {rt.restored(),
                TestJob.parts(rt).checkpoints().resumedFromBuddy()});
        List<Optional<Restored>> restored = out.stream().map(o -> (Optional<Restored>) o.get()[0]).toList();
        assertRestored(restored, epoch);
        return out.stream().map(o -> (Boolean) o.get()[1]).toList();
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 4})
    void withoutAnyCheckpointTheRestartIsAFreshStartAndTheFirstEpochIs1(int size) {
        TestJob job = TestJob.withCheckpoints(size, root);

        List<TestJob.Outcome<Object[]>> out = run(job.restart(), rt -> new Object[] {rt.restored(),
                rt.checkpoint(CheckpointFixture.writing(state(rt.rank(), 1)))});

        for (TestJob.Outcome<Object[]> o : out) {
            assertEquals(Optional.empty(), o.get()[0]);
            assertEquals(1L, o.get()[1]);
        }
    }

    @Test
    void atIncarnation1NothingIsResumedEvenWithCommitsOnDisk() {
        TestJob job = checkpointed(2, 1);

        // The same job launched again at incarnation 1: a new launch, not a restart.
        List<TestJob.Outcome<Optional<Restored>>> out = run(job, RankRuntime::restored);

        assertEquals(Optional.empty(), out.get(0).get());
        assertEquals(Optional.empty(), out.get(1).get());
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 4})
    void aDeletedRankFileIsFetchedFromTheBuddyAndStoredAgain(int size) {
        TestJob job = checkpointed(size, 1);
        delete(layout(job, 1).rankFile(1, 1));

        List<Boolean> fromBuddy = resumeFromBuddyFlags(job.restart(), 1);

        for (int r = 0; r < size; r++) {
            assertEquals(r == 1, fromBuddy.get(r), "rank " + r + " loaded from the buddy");
        }
        RankFileReader.check(layout(job, 1).rankFile(1, 1), job.job, 1, 1, size, commit(job, 0, 1, size), false);
    }

    @Test
    void rank0sDeletedFileIsFetchedFromRank1() {
        TestJob job = checkpointed(3, 1);
        delete(layout(job, 0).rankFile(1, 0));

        assertEquals(List.of(true, false, false), resumeFromBuddyFlags(job.restart(), 1));
    }

    @Test
    void aFlippedStateByteInARankFileIsH1620AndTheFileIsFetchedFromTheBuddy() {
        TestJob job = checkpointed(4, 1);
        flipByte(layout(job, 1).rankFile(1, 1), -1);
        assertRankFileRefused(job, 1, ErrorCode.H1620);

        assertEquals(List.of(false, true, false, false), resumeFromBuddyFlags(job.restart(), 1));
    }

    @Test
    void aFlippedHeaderByteInARankFileIsH1619AndTheFileIsFetchedFromTheBuddy() {
        TestJob job = checkpointed(2, 1);
        flipByte(layout(job, 0).rankFile(1, 0), RankFileHeader.RANK_OFFSET);
        assertRankFileRefused(job, 0, ErrorCode.H1619);

        assertEquals(List.of(true, false), resumeFromBuddyFlags(job.restart(), 1));
    }

    @Test
    void aFlippedByteInABuddyCopyThatIsNotNeededChangesNothing() {
        TestJob job = checkpointed(4, 1);
        flipByte(layout(job, 2).buddyFile(1, 1), -1);

        assertEquals(List.of(false, false, false, false), resumeFromBuddyFlags(job.restart(), 1));
    }

    @Test
    void aFlippedByteInTheBuddyCopyOfAMissingFileIsFoundAndTheJobEndsWithH1622() {
        TestJob job = checkpointed(4, 1);
        delete(layout(job, 1).rankFile(1, 1));
        flipByte(layout(job, 2).buddyFile(1, 1), -1);

        assertEveryRankFails(run(job.restart(), RankRuntime::restored), 0, ErrorCode.H1622);
    }

    @Test
    void aMissingFileWithoutAnyBuddyCopyIsH1622() {
        TestJob job = checkpointed(2, 1);
        delete(layout(job, 1).rankFile(1, 1));
        delete(layout(job, 0).buddyFile(1, 1));

        assertEveryRankFails(run(job.restart(), RankRuntime::restored), 0, ErrorCode.H1622);
    }

    /**
     * Issue 17 point 7: with bystanders, a rank that has seen another close (after it received rank 0's ABORT) still
     * reports rank 0's verdict, H1622, not H1613: the close grace of protocol 7.5. Repeated, since it is a race.
     */
    @RepeatedTest(3)
    void aRankAndItsBuddyBothMissingTheFileIsH1622OnEveryRankBystandersToo() {
        TestJob job = checkpointed(4, 1);
        delete(layout(job, 1).rankFile(1, 1));
        delete(layout(job, 2).buddyFile(1, 1));

        assertEveryRankFails(run(job.restart(), RankRuntime::restored), 0, ErrorCode.H1622);
    }

    /**
     * Protocol 7.6, 9.4 and 13.11, question 6: a wait of the resume that runs out ends the job with H1613 at the rank
     * that waited and ABORT reason 6 with code 1613. 1613 is no checkpoint code (H1619 to H1624), so the receivers
     * report H1612, in the resume (rank 1) and outside it (rank 2, which takes no part in it and waits in its
     * program), as after reason 5 with 1613 ({@code CheckpointRefusalTest}).
     */
    @Test
    void aResumeWaitThatRunsOutIsH1613AtRank0AndH1612AtTheOthers() {
        TestJob restarted = TestJob.withCheckpoints(3, root).restart().checkpointWaitLimit(Duration.ofSeconds(1))
                .checkpointsOffAt(2);
        List<TestJob.Outcome<byte[]>> out = run(restarted, rt -> rt.recv(0, 99));

        assertJobEnded(out, 0, ErrorCode.H1613, ErrorCode.H1612);
        assertTrue(out.get(0).error().reason().contains("rank 2 sent no RESUME within 1 s"),
                out.get(0).error().reason());
    }

    @Test
    void withOneRankABadRankFileIsH1622() {
        TestJob job = checkpointed(1, 1);
        flipByte(layout(job, 0).rankFile(1, 0), -1);

        assertEveryRankFails(run(job.restart(), RankRuntime::restored), 0, ErrorCode.H1622);
    }

    @Test
    void aFlippedByteInRank0sCommitIsRepairedFromAnotherRanksOffer() {
        TestJob job = checkpointed(3, 1);
        flipByte(layout(job, 0).commit(1), CommitLayout.HASHES_OFFSET);

        assertRestored(resume(job.restart()), 1);
        commit(job, 0, 1, 3);
    }

    @Test
    void aFlippedByteInEveryCopyOfTheNewestCommitFallsBackToThePreviousEpoch() {
        TestJob job = checkpointed(4, 2);
        for (int r = 0; r < 4; r++) {
            flipByte(layout(job, r).commit(2), -1);
        }

        assertRestored(resume(job.restart()), 1);
    }

    @Test
    void aMissingNewestCommitFallsBackToThePreviousEpoch() {
        TestJob job = checkpointed(2, 2);
        for (int r = 0; r < 2; r++) {
            delete(layout(job, r).commit(2));
        }

        assertRestored(resume(job.restart()), 1);
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 3})
    void aFlippedByteInEveryCopyOfTheOnlyCommitIsH1621(int size) {
        TestJob job = checkpointed(size, 1);
        for (int r = 0; r < size; r++) {
            flipByte(layout(job, r).commit(1), CommitLayout.EPOCH_OFFSET + 1);
        }

        assertEveryRankFails(run(job.restart(), RankRuntime::restored), 0, ErrorCode.H1621);
    }

    @Test
    void aCommitSignedWithAnotherKeyIsRefusedWithH1621() throws IOException {
        TestJob job = checkpointed(3, 1);
        CompositeSig.KeyPair other = CompositeSig.generate(new SecureRandom());
        for (int r = 0; r < 3; r++) {
            Path file = layout(job, r).commit(1);
            CommitFile genuine = CommitFile.read(ByteBuffer.wrap(Files.readAllBytes(file)));
            CommitFile forged = CommitSignatures.sign(CommitFile.unsigned(genuine.epoch(), genuine.jobId(),
                    genuine.rankFileSha256()), other.secretKey());
            Files.write(file, forged.toBytes());
        }

        assertEveryRankFails(run(job.restart(), RankRuntime::restored), 0, ErrorCode.H1621);
    }

    @Test
    void aCheckpointOfAnotherSizeIsRefusedWithH1623() {
        TestJob job = checkpointed(2, 1);

        assertEveryRankFails(run(job.restartWithSize(4, root), RankRuntime::restored), 0, ErrorCode.H1623);
    }

    @Test
    void aRankFileMovedToAnotherRanksNameIsRefused() throws IOException {
        TestJob job = checkpointed(2, 1);
        Files.copy(layout(job, 0).rankFile(1, 0), layout(job, 1).rankFile(1, 1),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertRankFileRefused(job, 1, ErrorCode.H1619);

        assertEquals(List.of(false, true), resumeFromBuddyFlags(job.restart(), 1));
    }

    private void assertRankFileRefused(TestJob job, int rank, ErrorCode code) {
        CommitFile commit = commit(job, rank == 0 ? 1 : 0, 1, job.size);
        SperliException e = assertThrows(SperliException.class, () -> RankFileReader.check(
                layout(job, rank).rankFile(1, rank), job.job, 1, rank, job.size, commit, false));
        assertEquals(code, e.code(), e.getMessage());
    }

    private static CommitFile commit(TestJob job, int holder, long epoch, int size) {
        try {
            byte[] bytes = Files.readAllBytes(layout(job, holder).commit(epoch));
            return CommitSignatures.verify(ByteBuffer.wrap(bytes), TestJob.jobKey().publicKey(), job.job, epoch,
                    size);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
