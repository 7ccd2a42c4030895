package org.sperli.runtime;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.function.Consumer;
import org.sperli.Checkpointable;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.checkpoint.CommitFile;
import org.sperli.checkpoint.CommitSignatures;
import org.sperli.checkpoint.EpochLayout;
import org.sperli.checkpoint.EpochStore;
import org.sperli.checkpoint.IncomingRankFile;
import org.sperli.checkpoint.RankFiles;
import org.sperli.checkpoint.UnsyncedRankFile;
import org.sperli.protocol.frame.FrameType;
import org.sperli.protocol.payload.Abort;
import org.sperli.protocol.payload.CkptAck;
import org.sperli.protocol.payload.CkptBegin;
import org.sperli.protocol.payload.CkptData;
import org.sperli.trace.TraceKind;
import org.sperli.runtime.CheckpointDriver.Hooks;
import org.sperli.runtime.CheckpointDriver.Step;
import org.sperli.transport.Frame;

/**
 * One checkpoint of one epoch at one rank, step by step as protocol section 9.4 and tables section 10 say.
 *
 * <p>Rank 0 ({@link #lead}): remove an old COMMIT of the epoch; CKPT_BEGIN to all; write its rank file and make it
 * durable (fsync, rename) while it sends the file to its buddy and collects every CKPT_ACK and then its own buddy
 * copy; once its sender is done (so the buddy copy precedes CKPT_COMMIT on that connection) and its copy matches the
 * ACK of its owner, write COMMIT signed with the job key and send CKPT_COMMIT to all.
 *
 * <p>Other ranks ({@link #follow}): take CKPT_BEGIN (version 1, else H1619; this size, else H1623; this epoch, else
 * H1619); remove their own old COMMIT of the epoch too (an earlier try's copy must not outlive rank 0's); write the
 * rank file; make it durable and send CKPT_ACK with its SHA-256, while sending the buddy copy and receiving the
 * predecessor's; then take CKPT_COMMIT, verify its signature and that it lists the hashes of the own file and the
 * buddy copy (H1621, H1620), and keep it. Both end by deleting epochs older than the previous one. With one rank
 * there is no frame and no buddy copy.
 *
 * <p><b>Why the fsync runs beside the copies.</b> The fsync of a large file takes time of the disk and no CPU, and
 * the copies take CPU and little disk: in a row they took a large share of each round (see docs/performance.md,
 * section 7). So the own file is made
 * durable, hashed, renamed and acknowledged on a {@link SideStep} while the program thread receives the buddy copy,
 * and the buddy copy is read from the temporary name before the file is durable. What a peer sees keeps the
 * protocol's order: the ACK leaves only after fsync and rename, and the rank whose buddy is rank 0 (the last rank)
 * starts its copy only after its ACK, since both travel on that one connection. Other buddies see no ACK, and a copy
 * of a file that never becomes durable is never committed, since rank 0 commits only with every ACK.
 */
final class CheckpointRound extends CheckpointProcedure {
    private final CheckpointSettings settings;
    private final long epoch;
    private final Hooks hooks;
    private volatile BuddySender sender;
    private SideStep<EpochStore.Written> durable;

    CheckpointRound(FrameLink frames, CkptLink link, EpochStore store, CheckpointSettings settings, long epoch,
                    Hooks hooks) {
        super(frames, link, store);
        this.settings = settings;
        this.epoch = epoch;
        this.hooks = hooks;
    }

    void lead(Checkpointable state) {
        byte[] signingKey = settings.signingKeyOrNull();
        if (signingKey == null) {
            throw new SperliException(ErrorCode.H1618, "rank 0 has no job signing key, so it cannot sign a COMMIT");
        }
        try {
            store.prepareEpoch(epoch);
            store.removeCommit(epoch);
            store.writeJobPublicKey(settings.jobPublicKey());
            link.sendToOthers(FrameType.CKPT_BEGIN, epoch, CkptBegin.v1(size).toBytes());
            UnsyncedRankFile file = writeRankFile(state);
            startBuddyCopy(file);
            makeDurable(file, own -> { });
            long acks = frames.traceStart();
            byte[][] hashes = new byte[size][];
            for (int r = 1; r < size; r++) {
                hashes[r] = link.awaitAck(r, epoch);
            }
            frames.traced(TraceKind.CKPT_ACKS, acks, -1, -1, epoch);
            byte[] copy = receiveBuddyCopy();
            hashes[0] = durable.join().fileSha256();
            joinSender();
            hooks.at(Step.AFTER_ACKS, epoch);
            long commitStart = frames.traceStart();
            if (copy != null && !MessageDigest.isEqual(copy, hashes[size - 1])) {
                throw new SperliException(ErrorCode.H1620, "buddy copy of rank " + (size - 1) + " SHA-256="
                        + RankFiles.hex(copy) + ", its CKPT_ACK says " + RankFiles.hex(hashes[size - 1]));
            }
            byte[] commit = CommitSignatures.sign(CommitFile.unsigned(epoch, frames.config().jobId(),
                    Arrays.asList(hashes)), signingKey).toBytes();
            store.writeCommit(epoch, commit);
            hooks.at(Step.AFTER_COMMIT_WRITTEN, epoch);
            link.sendToOthers(FrameType.CKPT_COMMIT, epoch, commit);
            store.retain(epoch);
            frames.traced(TraceKind.CKPT_COMMIT, commitStart, -1, commit.length, epoch);
        } finally {
            Arrays.fill(signingKey, (byte) 0);
        }
    }

    void follow(Checkpointable state) {
        Frame begin = link.await(0, FrameType.CKPT_BEGIN, CkptLink.ANY_EPOCH);
        try {
            CkptBegin.read(begin.payload().nioBuffer()).check(size);
            if (begin.header().epoch() != epoch) {
                throw new SperliException(ErrorCode.H1619, "CKPT_BEGIN epoch=" + begin.header().epoch()
                        + ", expected " + epoch + " (the last committed or resumed epoch + 1)");
            }
        } finally {
            begin.release();
        }
        store.prepareEpoch(epoch);
        store.removeCommit(epoch);
        UnsyncedRankFile file = writeRankFile(state);
        boolean buddyIsRank0 = EpochLayout.buddyOf(rank, size) == 0;
        if (!buddyIsRank0) {
            startBuddyCopy(file);
        }
        makeDurable(file, own -> {
            link.send(0, FrameType.CKPT_ACK, epoch, new CkptAck(own.fileSha256()).toBytes());
            if (buddyIsRank0) {
                startBuddyCopy(own.path());
            }
        });
        byte[] copy = receiveBuddyCopy();
        EpochStore.Written own = durable.join();
        joinSender();
        long commitStart = frames.traceStart();
        byte[] bytes = link.awaitCommit(0, epoch);
        CommitFile commit = CommitSignatures.verify(ByteBuffer.wrap(bytes), settings.jobPublicKey(),
                frames.config().jobId(), epoch, size);
        commit.expectRankFile(rank, own.fileSha256());
        commit.expectRankFile(EpochLayout.buddySourceOf(rank, size), copy);
        store.writeCommit(epoch, bytes);
        store.retain(epoch);
        frames.traced(TraceKind.CKPT_COMMIT, commitStart, -1, bytes.length, epoch);
    }

    /** The program's state written to this rank's file under its temporary name (traced as one phase). */
    private UnsyncedRankFile writeRankFile(Checkpointable state) {
        long start = frames.traceStart();
        UnsyncedRankFile file = store.writeRankFile(epoch, state);
        frames.traced(TraceKind.CKPT_WRITE, start, -1, -1, epoch);
        return file;
    }

    /** After a failure: lets the side threads end (the job's channels are closing) before the call returns. */
    void abandon() {
        if (durable != null) {
            durable.joinQuietly();
        }
        BuddySender s = sender;
        if (s != null) {
            s.joinQuietly();
        }
    }

    /**
     * On a side thread: fsync, hash and rename {@code file}, then {@code acknowledge} it; the program thread goes on
     * to the buddy copies at once.
     */
    private void makeDurable(UnsyncedRankFile file, Consumer<EpochStore.Written> acknowledge) {
        durable = SideStep.start(frames, "fsync", Abort.Reason.CHECKPOINT_FAILED,
                "make " + file.temporaryPath().getFileName() + " durable", () -> {
                    long start = frames.traceStart();
                    EpochStore.Written own = file.sync();
                    hooks.at(Step.BEFORE_ACK, epoch);
                    acknowledge.accept(own);
                    frames.traced(TraceKind.CKPT_DURABLE, start, -1, -1, epoch);
                    return own;
                });
    }

    /** Starts the buddy copy from the temporary name; the file is removed if that fails. */
    private void startBuddyCopy(UnsyncedRankFile file) {
        try {
            startBuddyCopy(file.temporaryPath());
        } catch (RuntimeException e) {
            file.discard();
            throw e;
        }
    }

    private void startBuddyCopy(Path file) {
        if (size == 1) {
            return;
        }
        sender = BuddySender.start(frames, EpochLayout.buddyOf(rank, size), epoch, CkptData.KIND_BUDDY_CHUNK, rank,
                file, () -> hooks.at(Step.BUDDY_CHUNK_SENT, epoch), Abort.Reason.CHECKPOINT_FAILED);
    }

    private void joinSender() {
        BuddySender s = sender;
        if (s != null) {
            s.join();
        }
    }

    /** The predecessor's file as {@code rank-<p>.ckpt.buddy}; its SHA-256, or {@code null} with one rank. */
    private byte[] receiveBuddyCopy() {
        if (size == 1) {
            return null;
        }
        int source = EpochLayout.buddySourceOf(rank, size);
        long start = frames.traceStart();
        try (IncomingRankFile in = store.receiveBuddyCopy(epoch, source)) {
            byte[] sha256 = link.receiveFile(source, epoch, CkptData.KIND_BUDDY_CHUNK, source, in, null, false);
            frames.traced(TraceKind.CKPT_BUDDY_IN, start, source, -1, epoch);
            return sha256;
        }
    }
}
