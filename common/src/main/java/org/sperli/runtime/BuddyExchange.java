package org.sperli.runtime;

import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.checkpoint.CommitFile;
import org.sperli.checkpoint.EpochLayout;
import org.sperli.checkpoint.IncomingRankFile;
import org.sperli.protocol.frame.FrameType;
import org.sperli.protocol.payload.Abort;
import org.sperli.protocol.payload.CkptData;

/**
 * Loading one rank's state at resume (protocol section 9.7, steps 4 and 5): the own rank file checked twice (the
 * state against its header, the whole file against the COMMIT entry); then, with more than one rank, the exchange
 * with both neighbours. Each rank n sends its buddy (n + 1) mod size CKPT_DATA kind 1 when its file is missing or bad
 * and kind 4 when it is not, and answers its predecessor's kind 1 with its buddy copy in kind 2 chunks once that copy
 * passed the same two checks, or kind 3. A fetched file is stored as the rank's own file (through its temporary
 * name) and checked the same way before its state is loaded.
 *
 * <p>A file that cannot be loaded is not an exception here but an outcome ({@link Loaded#failureOrNull}): the rank
 * still serves its predecessor and answers rank 0 with status 2. A frame out of order is H1610 and ends the job.
 */
final class BuddyExchange extends CheckpointProcedure {
    /** The exchange of {@code resume}, over its links and store. */
    BuddyExchange(ResumeDriver resume) {
        super(resume);
    }

    /** The outcome: the state and whether it came from the buddy, or why it could not be loaded. */
    record Loaded(byte[] stateOrNull, boolean fromBuddy, String failureOrNull) {
        boolean ok() {
            return stateOrNull != null;
        }
    }

    Loaded load(long epoch, CommitFile commit) {
        byte[] state = null;
        SperliException own = null;
        try {
            state = store.checkOwnFile(epoch, commit, true).stateOrNull();
        } catch (SperliException e) {
            own = e;
            note("its rank file of epoch " + epoch + " is refused (" + e.getMessage() + ")"
                    + (size > 1 ? "; fetching it from rank " + EpochLayout.buddyOf(rank, size) : ""));
        }
        return finishExchange(epoch, commit, state, own);
    }

    private Loaded finishExchange(long epoch, CommitFile commit, byte[] state, SperliException ownFailure) {
        if (size == 1) {
            return state != null ? new Loaded(state, false, null)
                    : new Loaded(null, false, "rank 0: " + ownFailure.getMessage() + "; one rank has no buddy copy");
        }
        int buddy = EpochLayout.buddyOf(rank, size);
        link.send(buddy, FrameType.CKPT_DATA, epoch,
                (state == null ? CkptData.request(rank) : CkptData.needsNothing(rank)).toBytes());
        BuddySender sender = servePredecessor(epoch, commit);
        try {
            if (state != null) {
                return new Loaded(state, false, null);
            }
            return fetch(epoch, commit, buddy, ownFailure);
        } finally {
            if (sender != null) {
                sender.join();
            }
        }
    }

    /** Answers the predecessor's kind 1 with the buddy copy (kind 2) or kind 3; kind 4 needs nothing. */
    private BuddySender servePredecessor(long epoch, CommitFile commit) {
        int predecessor = EpochLayout.buddySourceOf(rank, size);
        CkptData asked = link.awaitControl(predecessor, epoch);
        if (asked.fileRank() != predecessor
                || asked.kind() != CkptData.KIND_REQUEST && asked.kind() != CkptData.KIND_NEEDS_NOTHING) {
            throw new SperliException(ErrorCode.H1610, "rank " + predecessor + " sent CKPT_DATA kind " + asked.kind()
                    + " of file rank " + asked.fileRank() + ", expected kind 1 or 4 of file rank " + predecessor);
        }
        if (asked.kind() == CkptData.KIND_NEEDS_NOTHING) {
            return null;
        }
        try {
            store.checkBuddyCopy(epoch, predecessor, commit);
        } catch (SperliException e) {
            note("rank " + predecessor + " asked for its file of epoch " + epoch + ", but the buddy copy is refused ("
                    + e.getMessage() + ")");
            link.send(predecessor, FrameType.CKPT_DATA, epoch, CkptData.noCopy(predecessor).toBytes());
            return null;
        }
        return BuddySender.start(frames, predecessor, epoch, CkptData.KIND_ANSWER_CHUNK, predecessor,
                store.layout().buddyFile(epoch, predecessor), () -> { }, Abort.Reason.RESUME_FAILED);
    }

    private Loaded fetch(long epoch, CommitFile commit, int buddy, SperliException ownFailure) {
        String own = "rank " + rank + ": " + ownFailure.getMessage();
        try (IncomingRankFile in = store.receiveOwnFile(epoch)) {
            if (link.receiveFile(buddy, epoch, CkptData.KIND_ANSWER_CHUNK, rank, in, commit, true) == null) {
                return new Loaded(null, false, own + "; rank " + buddy + " has no valid copy");
            }
        } catch (SperliException e) {
            if (e.code() == ErrorCode.H1610) {
                throw e;
            }
            return new Loaded(null, false, own + "; the copy from rank " + buddy + " is refused: " + e.getMessage());
        }
        try {
            return new Loaded(store.checkOwnFile(epoch, commit, true).stateOrNull(), true, null);
        } catch (SperliException e) {
            return new Loaded(null, false, own + "; the fetched file is refused: " + e.getMessage());
        }
    }

    private void note(String line) {
        frames.config().log().accept("resume: rank " + rank + ": " + line);
    }
}
