package org.sperli.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.sperli.runtime.CheckpointFixture.state;
import static org.sperli.runtime.CheckpointFixture.writing;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.checkpoint.CommitFile;
import org.sperli.checkpoint.CommitSignatures;
import org.sperli.checkpoint.RankFileHeader;
import org.sperli.crypto.Sha256;
import org.sperli.identity.TlsSockets;
import org.sperli.protocol.JobId;
import org.sperli.protocol.frame.FrameHeader;
import org.sperli.protocol.frame.FrameType;
import org.sperli.protocol.payload.Abort;
import org.sperli.protocol.payload.CkptBegin;
import org.sperli.protocol.payload.CkptData;

/**
 * The codes of checkpoint frames that do not fit the checkpoint (protocol 9.4 and 13.11, questions 2 and 3), sent by
 * a hand-driven rank 0 to a real rank 1 of a job of two ranks with checkpoints on. A frame of another type or epoch
 * than the step expects, or a CKPT_DATA of another kind or file rank, is a refused frame: H1610, ABORT reason 2. A
 * CKPT_BEGIN of another epoch than the last + 1 is H1619 and a COMMIT naming another job or epoch H1621, both with
 * ABORT reason 5.
 */
class CheckpointFrameRulesTest {
    private static final SecureRandom RANDOM = new SecureRandom();

    @TempDir
    Path root;

    private TestJob job() {
        return TestJob.withCheckpoints(2, root).checkpointWaitLimit(Duration.ofSeconds(20));
    }

    /** Rank 1: connects and runs {@code body}; gives its value or the code it ended with. */
    private static CompletableFuture<TestJob.Outcome<Long>> rank1(TestJob job, Function<RankRuntime, Long> body) {
        RankConfig config = job.config(1);
        return CompletableFuture.supplyAsync(() -> {
            try (RankRuntime rt = RankRuntime.connect(config)) {
                return new TestJob.Outcome<>(body.apply(rt), null);
            } catch (SperliException e) {
                return new TestJob.Outcome<Long>(null, e);
            }
        });
    }

    private static Long checkpoint(RankRuntime rt) {
        return rt.checkpoint(writing(state(1, 1)));
    }

    /** A rogue rank 0 whose HELLO was checked, and which has read rank 1's. */
    private static RoguePeer rank0(TestJob job) throws Exception {
        RoguePeer rogue = RoguePeer.tls(TlsSockets.context(job.job, job.size, job.ca.certificate(),
                job.credentials.get(0)), job.hosts.get(1).port());
        rogue.sendHello(job, 0, 1, job.token(0));
        assertNotNull(rogue.readUntil(FrameType.HELLO));
        return rogue;
    }

    private static void send(RoguePeer rogue, TestJob job, FrameType type, long epoch, byte[] payload)
            throws Exception {
        rogue.send(FrameHeader.of(type, payload.length, job.job, 0, 1, job.incarnation, 0, epoch), payload);
    }

    /** Rank 0's own rank file of {@code epoch}, whole: what its buddy copy to rank 1 carries. */
    private static byte[] rank0File(TestJob job, long epoch) {
        byte[] state = state(0, epoch);
        byte[] header = RankFileHeader.forState(job.job, epoch, 0, 2, ByteBuffer.wrap(state)).toBytes();
        ByteBuffer file = ByteBuffer.allocate(header.length + state.length).put(header).put(state);
        return file.array();
    }

    /** CKPT_BEGIN of epoch 1 and rank 0's buddy copy: rank 1's checkpoint then waits for CKPT_COMMIT. */
    private static byte[] beginAndBuddyCopy(RoguePeer rogue, TestJob job) throws Exception {
        send(rogue, job, FrameType.CKPT_BEGIN, 1, CkptBegin.v1(2).toBytes());
        byte[] file = rank0File(job, 1);
        send(rogue, job, FrameType.CKPT_DATA, 1, new CkptData(CkptData.KIND_BUDDY_CHUNK, 0, 0, file.length,
                ByteBuffer.wrap(file)).toBytes());
        return file;
    }

    /** Rank 1 ended with {@code code}, and its ABORT to rank 0 carries {@code reason} and that code. */
    private static void assertEndedWith(ErrorCode code, Abort.Reason reason,
                                        CompletableFuture<TestJob.Outcome<Long>> rank, RoguePeer rogue)
            throws Exception {
        TestJob.Outcome<Long> o = rank.get(60, TimeUnit.SECONDS);
        assertNotNull(o.error(), "rank 1 did not fail, it gave " + o.value());
        assertEquals(code, o.error().code(), o.error().getMessage());
        Abort abort = rogue.readUntilAbort();
        assertNotNull(abort, "rank 1 sends ABORT before it closes");
        assertEquals(reason.code(), abort.reason(), abort.toString());
        assertEquals(code.number(), abort.code(), abort.toString());
    }

    @Test
    void aCkptBeginWhoseEpochIsNotTheLastPlusOneIsH1619WithAbortReason5() throws Exception {
        TestJob job = job();
        var rank = rank1(job, CheckpointFrameRulesTest::checkpoint);
        try (RoguePeer rogue = rank0(job)) {
            send(rogue, job, FrameType.CKPT_BEGIN, 2, CkptBegin.v1(2).toBytes());
            assertEndedWith(ErrorCode.H1619, Abort.Reason.CHECKPOINT_FAILED, rank, rogue);
        }
    }

    @Test
    void aCkptCommitOfAnotherEpochIsARefusedFrameH1610() throws Exception {
        TestJob job = job();
        var rank = rank1(job, CheckpointFrameRulesTest::checkpoint);
        try (RoguePeer rogue = rank0(job)) {
            beginAndBuddyCopy(rogue, job);
            send(rogue, job, FrameType.CKPT_COMMIT, 2, new byte[2522 + 32 * 2]);
            assertEndedWith(ErrorCode.H1610, Abort.Reason.REFUSED, rank, rogue);
        }
    }

    @Test
    void aCkptCommitWhoseCommitNamesAnotherJobIsH1621WithAbortReason5() throws Exception {
        TestJob job = job();
        var rank = rank1(job, CheckpointFrameRulesTest::checkpoint);
        try (RoguePeer rogue = rank0(job)) {
            byte[] file = beginAndBuddyCopy(rogue, job);
            byte[] commit = CommitSignatures.sign(CommitFile.unsigned(1, JobId.random(RANDOM),
                    List.of(Sha256.of(file), new byte[32])), TestJob.jobKey().secretKey()).toBytes();
            send(rogue, job, FrameType.CKPT_COMMIT, 1, commit);
            assertEndedWith(ErrorCode.H1621, Abort.Reason.CHECKPOINT_FAILED, rank, rogue);
        }
    }

    @Test
    void aCkptCommitWhoseCommitNamesAnotherEpochIsH1621WithAbortReason5() throws Exception {
        TestJob job = job();
        var rank = rank1(job, CheckpointFrameRulesTest::checkpoint);
        try (RoguePeer rogue = rank0(job)) {
            byte[] file = beginAndBuddyCopy(rogue, job);
            byte[] commit = CommitSignatures.sign(CommitFile.unsigned(2, job.job,
                    List.of(Sha256.of(file), new byte[32])), TestJob.jobKey().secretKey()).toBytes();
            send(rogue, job, FrameType.CKPT_COMMIT, 1, commit);
            assertEndedWith(ErrorCode.H1621, Abort.Reason.CHECKPOINT_FAILED, rank, rogue);
        }
    }

    /** The file rank names whose file it is: a buddy copy (kind 0) is its sender's file, not its receiver's. */
    @Test
    void aCkptDataWhoseFileRankIsNotItsSendersIsARefusedFrameH1610() throws Exception {
        TestJob job = job();
        var rank = rank1(job, CheckpointFrameRulesTest::checkpoint);
        try (RoguePeer rogue = rank0(job)) {
            send(rogue, job, FrameType.CKPT_BEGIN, 1, CkptBegin.v1(2).toBytes());
            byte[] file = rank0File(job, 1);
            send(rogue, job, FrameType.CKPT_DATA, 1, new CkptData(CkptData.KIND_BUDDY_CHUNK, 1, 0, file.length,
                    ByteBuffer.wrap(file)).toBytes());
            assertEndedWith(ErrorCode.H1610, Abort.Reason.REFUSED, rank, rogue);
        }
    }

    /**
     * A CKPT_DATA outside a checkpoint is queued with the checkpoint frames of its connection, as an early CKPT_BEGIN
     * is: the job goes on (the DATA after it arrives), and the next checkpoint, which waits for CKPT_BEGIN, finds it
     * in its place and refuses it.
     */
    @Test
    void aCkptDataOutsideACheckpointWaitsAndTheNextCheckpointRefusesItWithH1610() throws Exception {
        TestJob job = job();
        AtomicReference<String> received = new AtomicReference<>();
        var rank = rank1(job, rt -> {
            received.set(new String(rt.recv(0, 5), StandardCharsets.UTF_8));
            return checkpoint(rt);
        });
        try (RoguePeer rogue = rank0(job)) {
            send(rogue, job, FrameType.CKPT_DATA, 1, CkptData.needsNothing(0).toBytes());
            byte[] hi = "hi".getBytes(StandardCharsets.UTF_8);
            rogue.send(FrameHeader.of(FrameType.DATA, hi.length, job.job, 0, 1, job.incarnation, 5, 0), hi);
            assertEndedWith(ErrorCode.H1610, Abort.Reason.REFUSED, rank, rogue);
            assertEquals("hi", received.get(), "the job went on after the CKPT_DATA");
        }
    }
}
