package org.sperli.checkpoint.inspect;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.sperli.ErrorCode;
import org.sperli.checkpoint.ResumeChoice;
import org.sperli.checkpoint.inspect.Inspection.Commit;
import org.sperli.checkpoint.inspect.Inspection.Epoch;
import org.sperli.checkpoint.inspect.Inspection.EpochVerdict;
import org.sperli.checkpoint.inspect.Inspection.FileStatus;
import org.sperli.checkpoint.inspect.Inspection.JobVerdict;
import org.sperli.checkpoint.inspect.Inspection.LoadFrom;
import org.sperli.checkpoint.inspect.Inspection.Rank;
import org.sperli.checkpoint.inspect.Inspection.RankFile;

/**
 * The verdict of every epoch and of the job, over checked epochs; a pure function. The pick is the resume's own
 * ({@link ResumeChoice}, protocol section 9.7): the highest epoch whose COMMIT holds, else the newest COMMIT failure's
 * code, else a fresh start. On top, what the resume then finds at the picked epoch: every rank loads from its file or,
 * failing that, its buddy copy, or the resume fails with H1622; it does not fall back past a COMMIT that holds.
 */
final class EpochVerdicts {
    /** The one holder of every COMMIT in a directory (the inspector reads one host's view). */
    private static final int HOLDER = 0;

    private EpochVerdicts() {
    }

    /** The job-level outcome and the epochs with their verdicts, newest first. */
    record Decision(Long resumeEpoch, JobVerdict verdict, ErrorCode code, String reason, List<Epoch> epochs) {
    }

    /** Decides over {@code checked}, whose verdicts are not yet set; {@code commits} holds their COMMIT results. */
    static Decision decide(List<Epoch> checked, List<FileChecks.CommitResult> commits) {
        List<ResumeChoice.Candidate> candidates = new ArrayList<>();
        for (int i = 0; i < checked.size(); i++) {
            FileChecks.CommitResult c = commits.get(i);
            long epoch = checked.get(i).epoch();
            if (c.holds()) {
                // The bytes only mark it verified here; the inspector's own result holds the decoded file.
                candidates.add(ResumeChoice.Candidate.verified(epoch, HOLDER, new byte[0]));
            } else if (c.refusalOrNull() != null) {
                candidates.add(ResumeChoice.Candidate.refused(epoch, HOLDER, c.refusalOrNull()));
            }
        }
        ResumeChoice.Decision choice = ResumeChoice.choose(candidates);
        List<Epoch> newestFirst = new ArrayList<>(checked);
        newestFirst.sort(Comparator.comparingLong(Epoch::epoch).reversed());
        Epoch pick = choice instanceof ResumeChoice.ResumeEpoch r
                ? newestFirst.stream().filter(e -> e.epoch() == r.epoch()).findFirst().orElseThrow() : null;
        String unloadable = pick == null ? null : unloadable(pick);
        List<Epoch> decided = new ArrayList<>();
        for (Epoch e : newestFirst) {
            decided.add(verdictOf(e, pick, unloadable));
        }
        if (choice instanceof ResumeChoice.FreshStart) {
            return new Decision(null, JobVerdict.FRESH_START, null, decided.isEmpty()
                    ? "no epoch directory: a restart starts from scratch (epoch 0, no state)"
                    : "no COMMIT in any epoch: a restart starts from scratch (epoch 0, no state)", decided);
        }
        if (choice instanceof ResumeChoice.Refused r) {
            return new Decision(null, JobVerdict.NOT_RESUMABLE, r.code(), "no COMMIT holds; the newest failure,"
                    + " epoch " + r.epoch() + ": " + r.failure().reason(), decided);
        }
        if (unloadable != null) {
            return new Decision(pick.epoch(), JobVerdict.NOT_RESUMABLE, ErrorCode.H1622, "a resume picks epoch "
                    + pick.epoch() + ", the newest valid COMMIT, and fails: " + unloadable, decided);
        }
        boolean verified = pick.commit().status() == FileStatus.OK;
        return new Decision(pick.epoch(), verified ? JobVerdict.RESUMABLE : JobVerdict.RESUMABLE_UNVERIFIED, null,
                "a resume picks epoch " + pick.epoch() + " and loads every rank" + fromBuddies(pick)
                        + (verified ? "" : "; only if its COMMIT signature holds (not checked: no job public key)"),
                decided);
    }

    private static Epoch verdictOf(Epoch e, Epoch pick, String pickUnloadable) {
        if (e == pick) {
            if (pickUnloadable != null) {
                return with(e, EpochVerdict.REFUSED, ErrorCode.H1622, "picked, but " + pickUnloadable);
            }
            boolean verified = e.commit().status() == FileStatus.OK;
            return with(e, verified ? EpochVerdict.RESUME : EpochVerdict.RESUME_UNVERIFIED, null,
                    "picked: every rank loads" + fromBuddies(e)
                            + (verified ? "" : "; COMMIT signature not checked (no job public key)"));
        }
        Commit commit = e.commit();
        if (commit.status() == FileStatus.MISSING) {
            return with(e, EpochVerdict.NO_COMMIT, null,
                    "no COMMIT: the checkpoint did not finish, and an epoch without one does not count");
        }
        if (commit.status() != FileStatus.OK && commit.status() != FileStatus.UNVERIFIED) {
            return with(e, EpochVerdict.REFUSED, commit.code(), commit.reason());
        }
        String unloadable = unloadable(e);
        if (unloadable != null) {
            return with(e, EpochVerdict.REFUSED, ErrorCode.H1622, unloadable);
        }
        if (pick == null || e.epoch() > pick.epoch()) {
            // Not reached by the choice above; kept total so that a change there cannot mislabel an epoch.
            return with(e, EpochVerdict.OLDER, null, "complete");
        }
        return with(e, EpochVerdict.OLDER, null, pickUnloadable == null
                ? "complete, but older than epoch " + pick.epoch() + ", which a resume picks"
                : "complete, but a resume picks epoch " + pick.epoch() + " (the newest valid COMMIT) and does not"
                        + " fall back past it");
    }

    /** Why some rank of {@code e} cannot be loaded, or null when all can. */
    private static String unloadable(Epoch e) {
        if (e.ranks().isEmpty()) {
            return "no rank file";
        }
        List<String> faults = new ArrayList<>();
        for (Rank r : e.ranks()) {
            if (r.loadFrom() == LoadFrom.NONE) {
                String buddy = r.buddy() == null ? " and size 1 has no buddy copy"
                        : ", its buddy copy " + said(r.buddy());
                faults.add("rank " + r.rank() + " cannot be loaded: its file " + said(r.file()) + buddy);
            }
        }
        return faults.isEmpty() ? null : String.join("; ", faults);
    }

    private static String fromBuddies(Epoch e) {
        List<String> ranks = e.ranks().stream().filter(r -> r.loadFrom() == LoadFrom.BUDDY)
                .map(r -> Integer.toString(r.rank())).toList();
        return ranks.isEmpty() ? "" : " (rank" + (ranks.size() == 1 ? " " : "s ") + String.join(", ", ranks)
                + " from the buddy copy)";
    }

    private static String said(RankFile f) {
        return switch (f.status()) {
            case MISSING -> "is missing";
            case REFUSED, UNREADABLE -> "is refused (" + f.code() + " " + f.reason() + ")";
            default -> "is " + f.status().name().toLowerCase(Locale.ROOT);
        };
    }

    private static Epoch with(Epoch e, EpochVerdict verdict, ErrorCode code, String reason) {
        return new Epoch(e.epoch(), verdict, code, reason, e.commit(), e.ranks(), e.ignored());
    }
}
