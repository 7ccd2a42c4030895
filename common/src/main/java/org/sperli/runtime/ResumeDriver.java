package org.sperli.runtime;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.sperli.ErrorCode;
import org.sperli.Restored;
import org.sperli.SperliException;
import org.sperli.checkpoint.CommitFile;
import org.sperli.checkpoint.CommitSignatures;
import org.sperli.checkpoint.EpochStore;
import org.sperli.checkpoint.ResumeChoice.Candidate;
import org.sperli.checkpoint.ResumeChoice.Decision;
import org.sperli.checkpoint.ResumeChoice;
import org.sperli.protocol.CommitLayout;
import org.sperli.protocol.frame.FrameType;
import org.sperli.protocol.payload.Abort;
import org.sperli.protocol.payload.Resume;
import org.sperli.runtime.CkptLink.ResumeMessage;
import org.sperli.trace.TraceKind;

/**
 * The resume of one rank at a restart (protocol section 9.7), run by {@link RankRuntime#connect} after every HELLO
 * and before the program starts.
 *
 * <ol>
 *   <li>Every rank but 0 offers rank 0 the best COMMIT it holds (RESUME status 3): the newest that verifies, else the
 *   newest it can send so that rank 0 learns why it fails, else none (header epoch 0).</li>
 *   <li>Rank 0 verifies its own COMMITs and the offers and picks with {@link ResumeChoice}: no COMMIT anywhere is a
 *   fresh start (one status 0 with epoch 0 and no COMMIT, the "go on"); none verifying ends the job with the code of
 *   the newest failure (ABORT reason 6); else status 0 with the chosen epoch and its COMMIT.</li>
 *   <li>Every rank verifies that COMMIT (a failure ends the job with its code), keeps a copy, and loads its state
 *   through the {@link BuddyExchange}; ranks other than 0 answer 0 (own file), 1 (buddy's copy) or 2 (cannot).</li>
 *   <li>Rank 0 sends status 0 with the epoch and no COMMIT to go on, or on any status 2 (or its own failure) ends
 *   the job with H1622, ABORT reason 6.</li>
 * </ol>
 *
 * <p>Every failure ends the job with ABORT reason 6 (reason 2 for a refused frame); every rank reports the code rank
 * 0 sent ({@link CkptLink#jobFailure}).
 */
final class ResumeDriver extends CheckpointProcedure {
    /**
     * The epoch resumed (0 for a fresh start), the state ({@code null} for a fresh start), and whether this rank's file
     * came from its buddy.
     */
    record Result(long epoch, Restored restoredOrNull, boolean fromBuddy) {
    }

    private final CheckpointSettings settings;

    ResumeDriver(FrameLink frames, CkptLink link, EpochStore store, CheckpointSettings settings) {
        super(frames, link, store);
        this.settings = settings;
    }

    Result run() {
        try {
            return rank == 0 ? lead() : follow();
        } catch (RuntimeException e) {
            throw link.fail(Abort.Reason.RESUME_FAILED, CkptLink.asSperli(e));
        }
    }

    private Result lead() {
        List<Candidate> candidates = ownCandidates();
        for (int r = 1; r < size; r++) {
            ResumeMessage offer = link.awaitResume(r, CkptLink.ANY_EPOCH);
            if (offer.status() != Resume.OFFER || offer.commitOrNull() == null && offer.epoch() != 0) {
                throw new SperliException(ErrorCode.H1610, "rank " + r + " sent RESUME status " + offer.status()
                        + " of epoch " + offer.epoch() + " where an offer (status 3; epoch 0 without a COMMIT) was"
                        + " expected");
            }
            if (offer.commitOrNull() != null) {
                candidates.add(check(offer.epoch(), r, offer.commitOrNull()));
            }
        }
        Decision decision = ResumeChoice.choose(candidates);
        if (decision instanceof ResumeChoice.Refused refused) {
            throw new SperliException(refused.code(), "no COMMIT verifies; the newest, epoch " + refused.epoch()
                    + " at rank " + refused.holder() + ": " + refused.failure().reason());
        }
        if (decision instanceof ResumeChoice.FreshStart) {
            note("no COMMIT anywhere: fresh start");
            link.sendToOthers(FrameType.RESUME, 0, CkptLink.resume(Resume.GO_ON, null));
            return new Result(0, null, false);
        }
        ResumeChoice.ResumeEpoch chosen = (ResumeChoice.ResumeEpoch) decision;
        long epoch = chosen.epoch();
        passedOver(candidates, epoch);
        note("resuming epoch " + epoch + " (COMMIT from rank " + chosen.holder() + ")");
        link.sendToOthers(FrameType.RESUME, epoch, CkptLink.resume(Resume.GO_ON, chosen.commit()));
        BuddyExchange.Loaded own = load(epoch, chosen.commit());
        StringBuilder failures = new StringBuilder(own.ok() ? "" : own.failureOrNull());
        for (int r = 1; r < size; r++) {
            ResumeMessage answer = link.awaitResume(r, epoch);
            if (answer.commitOrNull() != null || answer.status() > Resume.CANNOT_LOAD) {
                throw new SperliException(ErrorCode.H1610, "rank " + r + " answered RESUME status "
                        + answer.status() + (answer.commitOrNull() != null ? " with a COMMIT" : "")
                        + ", expected 0, 1 or 2 without one");
            }
            if (answer.status() == Resume.CANNOT_LOAD) {
                failures.append(failures.length() == 0 ? "" : "; ").append("rank ").append(r)
                        .append(" cannot load its state");
            }
        }
        if (failures.length() > 0) {
            throw new SperliException(ErrorCode.H1622, "epoch " + epoch + " cannot be resumed: " + failures);
        }
        link.sendToOthers(FrameType.RESUME, epoch, CkptLink.resume(Resume.GO_ON, null));
        return new Result(epoch, new Restored(epoch, own.stateOrNull()), own.fromBuddy());
    }

    private Result follow() {
        offer();
        ResumeMessage chosen = link.awaitResume(0, CkptLink.ANY_EPOCH);
        if (chosen.status() != Resume.GO_ON || chosen.commitOrNull() == null && chosen.epoch() != 0) {
            throw new SperliException(ErrorCode.H1610, "rank 0 sent RESUME status " + chosen.status() + " of epoch "
                    + chosen.epoch() + ", expected status 0 with a COMMIT, or with epoch 0 and none");
        }
        if (chosen.commitOrNull() == null) {
            return new Result(0, null, false);
        }
        long epoch = chosen.epoch();
        BuddyExchange.Loaded own = load(epoch, chosen.commitOrNull());
        int status = own.ok() ? (own.fromBuddy() ? Resume.LOADED_FROM_BUDDY : Resume.GO_ON) : Resume.CANNOT_LOAD;
        if (!own.ok()) {
            note("cannot load its state: " + own.failureOrNull());
        }
        link.send(0, FrameType.RESUME, epoch, CkptLink.resume(status, null));
        // After status 2 the next thing from rank 0 is its ABORT, which this wait throws.
        ResumeMessage goOn = link.awaitResume(0, epoch);
        if (goOn.status() != Resume.GO_ON || goOn.commitOrNull() != null || !own.ok()) {
            throw new SperliException(ErrorCode.H1610, "rank 0 sent RESUME status " + goOn.status()
                    + (goOn.commitOrNull() != null ? " with a COMMIT" : "") + " where "
                    + (own.ok() ? "status 0 without a COMMIT (go on)" : "an ABORT after status 2") + " was expected");
        }
        return new Result(epoch, new Restored(epoch, own.stateOrNull()), own.fromBuddy());
    }

    /** Verifies the chosen COMMIT, keeps a copy of it, and loads this rank's state. */
    private BuddyExchange.Loaded load(long epoch, byte[] commitBytes) {
        long start = frames.traceStart();
        CommitFile commit = verify(epoch, commitBytes);
        if (!store.holdsCommit(epoch, commitBytes)) {
            store.writeCommit(epoch, commitBytes);
        }
        BuddyExchange.Loaded loaded = new BuddyExchange(this).load(epoch, commit);
        frames.traced(TraceKind.RESUME_LOAD, start, -1, loaded.stateOrNull() == null ? -1
                : loaded.stateOrNull().length, epoch);
        return loaded;
    }

    /** The offer of a rank other than 0: the newest COMMIT that verifies, else the newest that can be sent. */
    private void offer() {
        long epoch = 0;
        byte[] offered = null;
        for (long e : store.epochsNewestFirst()) {
            byte[] bytes;
            try {
                bytes = store.readCommit(e);
            } catch (SperliException unreadable) {
                continue;
            }
            // A COMMIT of another length does not fit a RESUME of this job; rank 0 judges its own copy.
            if (bytes == null || bytes.length != CommitLayout.lengthFor(size)) {
                continue;
            }
            if (check(e, rank, bytes).isVerified()) {
                epoch = e;
                offered = bytes;
                break;
            }
            if (offered == null) {
                epoch = e;
                offered = bytes;
            }
        }
        link.send(0, FrameType.RESUME, epoch, CkptLink.resume(Resume.OFFER, offered));
    }

    private List<Candidate> ownCandidates() {
        List<Candidate> candidates = new ArrayList<>();
        for (long e : store.epochsNewestFirst()) {
            try {
                byte[] bytes = store.readCommit(e);
                if (bytes != null) {
                    candidates.add(check(e, rank, bytes));
                }
            } catch (SperliException unreadable) {
                candidates.add(Candidate.refused(e, rank, unreadable));
            }
        }
        return candidates;
    }

    private Candidate check(long epoch, int holder, byte[] bytes) {
        try {
            verify(epoch, bytes);
            return Candidate.verified(epoch, holder, bytes);
        } catch (SperliException e) {
            return Candidate.refused(epoch, holder, e);
        }
    }

    private CommitFile verify(long epoch, byte[] bytes) {
        return CommitSignatures.verify(ByteBuffer.wrap(bytes), settings.jobPublicKey(), frames.config().jobId(),
                epoch, size);
    }

    /**
     * Notes each newer epoch whose COMMIT was refused, once per epoch with its first refusal, so that an operator sees
     * why the job went back further than the newest checkpoint.
     */
    private void passedOver(List<Candidate> candidates, long chosen) {
        Set<Long> noted = new HashSet<>();
        candidates.stream().filter(c -> !c.isVerified() && c.epoch() > chosen)
                .sorted(Comparator.comparingLong(Candidate::epoch).reversed()
                        .thenComparingInt(Candidate::holder))
                .filter(c -> noted.add(c.epoch()))
                .forEach(c -> note("passing over epoch " + c.epoch() + ": the COMMIT at rank " + c.holder()
                        + " is refused (" + c.refusal().getMessage() + ")"));
    }

    private void note(String line) {
        frames.config().log().accept("resume: rank " + rank + ": " + line);
    }
}
