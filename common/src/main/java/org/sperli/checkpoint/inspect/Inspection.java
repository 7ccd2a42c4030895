package org.sperli.checkpoint.inspect;

import java.util.List;
import org.sperli.ErrorCode;

/**
 * What {@link Inspector} found in a checkpoint directory: one {@link Job} per job directory, newest epoch first in
 * each, and the entries it did not use. Immutable records of strings, numbers and enums, so that {@code --json} and the
 * human table are two renderings of the same values. Hashes are lower-case hex; {@code null} means "not known" (a
 * missing file has no length, a file whose header could not be read has no hashes).
 *
 * @param directory the directory inspected, as a real path
 * @param jobs      the job directories, in job id order
 * @param ignored   entries of the directory that are not job directories
 */
public record Inspection(String directory, List<Job> jobs, List<Entry> ignored) {
    public Inspection {
        jobs = List.copyOf(jobs);
        ignored = List.copyOf(ignored);
    }

    /** Whether some job has an epoch that a resume would load, its COMMIT signature verified. */
    public boolean anyResumable() {
        return jobs.stream().anyMatch(j -> j.verdict() == JobVerdict.RESUMABLE);
    }

    /** Whether some job would be resumable if its COMMIT signature holds (no job public key was known). */
    public boolean anyResumableUnverified() {
        return jobs.stream().anyMatch(j -> j.verdict() == JobVerdict.RESUMABLE_UNVERIFIED);
    }

    /** What a restart of the job would do with these checkpoints. */
    public enum JobVerdict {
        /** It resumes {@link Job#resumeEpoch()}: the COMMIT verifies and every rank's state loads. */
        RESUMABLE,
        /** Like RESUMABLE, but no job public key was known, so the COMMIT signature was not checked. */
        RESUMABLE_UNVERIFIED,
        /** No COMMIT anywhere: a restart starts from scratch at epoch 0. */
        FRESH_START,
        /** COMMITs exist but none verifies, or the picked epoch cannot be loaded: the resume fails with the code. */
        NOT_RESUMABLE
    }

    /** One epoch's part in the choice. */
    public enum EpochVerdict {
        /** The epoch a resume picks and loads. */
        RESUME,
        /** The epoch a resume picks, if its COMMIT signature holds (not checked: no job public key). */
        RESUME_UNVERIFIED,
        /** Complete and valid, but a resume picks a newer epoch. */
        OLDER,
        /** No COMMIT: the checkpoint did not finish, and an epoch without one does not count. */
        NO_COMMIT,
        /** Refused with {@link Epoch#code()}: its COMMIT does not verify, or it cannot be loaded (H1622). */
        REFUSED
    }

    /** A file's verdict. */
    public enum FileStatus {
        OK,
        /** Everything holds except the COMMIT signature, which was not checked (COMMIT only). */
        UNVERIFIED,
        MISSING,
        /** Refused with an H code. */
        REFUSED,
        /** An I/O error other than "missing" (permissions, a directory in its place is REFUSED). */
        UNREADABLE
    }

    /** How the COMMIT signature fared. */
    public enum SignatureCheck {
        VALID,
        INVALID,
        /** No job public key: neither --public-key nor a usable job.pub. */
        NO_KEY
    }

    /** Where a resume would load a rank's state from. */
    public enum LoadFrom {
        FILE,
        BUDDY,
        NONE
    }

    /**
     * One job directory.
     *
     * @param jobId       32 lower-case hex digits
     * @param size        the size the files are checked against, or null when none is known
     * @param sizeSource  where the size came from ({@code --size}, or the COMMIT of an epoch)
     * @param publicKey   where the job public key came from ({@code --public-key FILE} or {@code job.pub}), or null
     * @param keyFromDirectory whether that key is the {@code job.pub} of the directory inspected: a COMMIT that
     *                    verifies against it proves only that the same hand wrote both, since whoever can write the
     *                    directory can replace them together (the ranks use the key of their description instead)
     * @param resumeEpoch the epoch a resume picks (also when it then fails to load), or null
     * @param verdict     what a restart would do
     * @param code        the code a restart would fail with (NOT_RESUMABLE only)
     * @param reason      the verdict in words
     * @param epochs      newest first
     * @param ignored     entries of the job directory that are not epochs or {@code job.pub}
     */
    public record Job(String jobId, Long size, String sizeSource, String publicKey, boolean keyFromDirectory,
                      Long resumeEpoch, JobVerdict verdict, ErrorCode code, String reason, List<Epoch> epochs,
                      List<Entry> ignored) {
        public Job {
            epochs = List.copyOf(epochs);
            ignored = List.copyOf(ignored);
        }
    }

    /**
     * One epoch directory.
     *
     * @param ranks   every rank of the size, then files named for ranks outside it
     * @param ignored temporary files and other entries of the epoch directory
     */
    public record Epoch(long epoch, EpochVerdict verdict, ErrorCode code, String reason, Commit commit,
                        List<Rank> ranks, List<Entry> ignored) {
        public Epoch {
            ranks = List.copyOf(ranks);
            ignored = List.copyOf(ignored);
        }
    }

    /**
     * The epoch's COMMIT file.
     *
     * @param bytes     its length, or null when missing
     * @param size      the size it names, once it decoded
     * @param signature null until the file decoded
     */
    public record Commit(Long bytes, FileStatus status, ErrorCode code, String reason, Long size,
                         SignatureCheck signature) {
    }

    /**
     * One rank of an epoch: its own file and the copy its buddy holds ({@code null} for size 1, which has none).
     */
    public record Rank(int rank, RankFile file, RankFile buddy, LoadFrom loadFrom) {
    }

    /**
     * A rank file or buddy copy.
     *
     * @param name              the file name in the epoch directory
     * @param bytes             its length, or null when missing
     * @param stateLength       the state length its header names
     * @param headerStateSha256 the state hash its header names
     * @param fileSha256        the whole file's hash as read (only when every check held)
     * @param commitSha256      the COMMIT's entry for this rank (null without a COMMIT that holds)
     */
    public record RankFile(String name, Long bytes, FileStatus status, ErrorCode code, String reason,
                           Long stateLength, String headerStateSha256, String fileSha256, String commitSha256) {
    }

    /** An entry that is not one of the files above: what it is and why it was not used. */
    public record Entry(String name, String note) {
    }
}
