package org.sperli.checkpoint;

import java.util.Collection;
import java.util.Objects;
import org.sperli.ErrorCode;
import org.sperli.SperliException;

/**
 * Which epoch a job resumes (original text, "Failure and resume"; tables section 9): the highest epoch whose COMMIT
 * verified at any holder. With none verified, the code of the newest failure; with no COMMIT at all, a fresh start.
 * A pure function over what rank 0 and the offers found; the checks themselves are the caller's.
 */
public final class ResumeChoice {
    private ResumeChoice() {
    }

    /**
     * One COMMIT one rank holds: its epoch (the directory it lies in), the holder, and either its verified bytes or
     * the refusal of its check.
     */
    public record Candidate(long epoch, int holder, byte[] commit, SperliException refusal) {
        public Candidate {
            if ((commit == null) == (refusal == null)) {
                throw new IllegalArgumentException("a candidate is either verified (bytes) or refused (a refusal)");
            }
        }

        public static Candidate verified(long epoch, int holder, byte[] commit) {
            return new Candidate(epoch, holder, Objects.requireNonNull(commit, "commit"), null);
        }

        public static Candidate refused(long epoch, int holder, SperliException refusal) {
            return new Candidate(epoch, holder, null, Objects.requireNonNull(refusal, "refusal"));
        }

        public boolean isVerified() {
            return commit != null;
        }
    }

    /** What the job does. */
    public sealed interface Decision permits FreshStart, ResumeEpoch, Refused {
    }

    /** No COMMIT anywhere: the program starts without state; the first checkpoint is epoch 1. */
    public record FreshStart() implements Decision {
    }

    /** Resume {@code epoch} with this verified COMMIT, found at {@code holder}. */
    public record ResumeEpoch(long epoch, int holder, byte[] commit) implements Decision {
    }

    /** COMMITs exist but none verified: the newest failure, whose code the job ends with. */
    public record Refused(long epoch, int holder, SperliException failure) implements Decision {
        public ErrorCode code() {
            return failure.code();
        }
    }

    /**
     * The decision over every candidate: the verified one of the highest epoch (the lowest holder among equals); else
     * the refusal of the highest epoch (the lowest holder among equals); else a fresh start.
     */
    public static Decision choose(Collection<Candidate> candidates) {
        Candidate best = null;
        Candidate newestFailure = null;
        for (Candidate c : candidates) {
            if (c.isVerified()) {
                best = newer(best, c);
            } else {
                newestFailure = newer(newestFailure, c);
            }
        }
        if (best != null) {
            return new ResumeEpoch(best.epoch(), best.holder(), best.commit());
        }
        if (newestFailure != null) {
            return new Refused(newestFailure.epoch(), newestFailure.holder(), newestFailure.refusal());
        }
        return new FreshStart();
    }

    private static Candidate newer(Candidate kept, Candidate c) {
        if (kept == null || c.epoch() > kept.epoch() || c.epoch() == kept.epoch() && c.holder() < kept.holder()) {
            return c;
        }
        return kept;
    }
}
