package org.sperli.checkpoint;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.sperli.Checkpointable;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.protocol.CommitLayout;
import org.sperli.protocol.JobId;

/**
 * One rank's checkpoint files of one job on its own disk ({@link EpochLayout}), and every file operation the
 * checkpoint and resume procedures make on them. Every file is written through its temporary name ({@link
 * DurableFiles}); every failure is a SperliException with its code: H1619 when a file cannot be written or read as
 * expected, H1621 for a COMMIT that cannot be read.
 *
 * <p>Beside the epochs, rank 0 keeps the job public key as {@code <dir>/<job>/job.pub} (1344 raw bytes), so that a
 * checkpoint directory can be inspected and its signatures checked without the job description.
 */
public final class EpochStore {
    /** Name of the job public key file in the job directory. */
    public static final String JOB_PUBLIC_KEY = "job.pub";

    private final EpochLayout layout;
    private final JobId job;
    private final int rank;
    private final int size;

    private EpochStore(Path dir, JobId job, int rank, int size) {
        this.layout = EpochLayout.of(dir, job);
        this.job = job;
        this.rank = rank;
        this.size = size;
        EpochLayout.buddyOf(rank, size); // checks 0 <= rank < size <= 4096
    }

    /** The files of {@code rank} of a job of {@code size} ranks under the checkpoint directory {@code dir}. */
    public static EpochStore of(Path dir, JobId job, int rank, int size) {
        return new EpochStore(dir, job, rank, size);
    }

    public EpochLayout layout() {
        return layout;
    }

    /** Creates the epoch directory (and the job directory) unless it exists; an existing one is reused. */
    public void prepareEpoch(long epoch) {
        Path dir = layout.epochDir(epoch);
        try {
            DurableFiles.createDirectories(dir);
        } catch (IOException e) {
            throw cannot("create " + dir, e);
        }
    }

    /** Removes an old COMMIT (and COMMIT.tmp) of {@code epoch}, so a half-made epoch never shows an earlier one. */
    public void removeCommit(long epoch) {
        try {
            DurableFiles.deleteDurably(layout.commitTmp(epoch, rank));
            DurableFiles.deleteDurably(layout.commit(epoch));
        } catch (IOException e) {
            throw cannot("remove the COMMIT of epoch " + epoch, e);
        }
    }

    /** A rank file this rank wrote, durable: its final path and whole-file SHA-256 (what CKPT_ACK carries). */
    public record Written(Path path, byte[] fileSha256) {
    }

    /**
     * Writes this rank's file of {@code epoch} from {@code state} to {@code rank-<n>.ckpt.tmp}; its {@link
     * UnsyncedRankFile#sync} then makes it durable and renames it. An exception of the state's writer is H1619 with it
     * as the cause.
     */
    public UnsyncedRankFile writeRankFile(long epoch, Checkpointable state) {
        try {
            return RankFileWriter.write(layout.rankFileTmp(epoch, rank), layout.rankFile(epoch, rank), job, epoch,
                    rank, size, state);
        } catch (IOException e) {
            throw cannot("write " + layout.rankFile(epoch, rank).getFileName(), e);
        } catch (RuntimeException e) {
            throw new SperliException(ErrorCode.H1619, "the state's writeCheckpoint failed: " + e, e);
        }
    }

    /** A buddy copy of {@code fileRank}'s file arriving: {@code rank-<r>.ckpt.buddy.tmp}, then {@code .buddy}. */
    public IncomingRankFile receiveBuddyCopy(long epoch, int fileRank) {
        return incoming(layout.buddyFileTmp(epoch, fileRank), layout.buddyFile(epoch, fileRank), epoch, fileRank);
    }

    /** This rank's own file fetched from its buddy at resume: {@code rank-<n>.ckpt.tmp}, then {@code rank-<n>.ckpt}. */
    public IncomingRankFile receiveOwnFile(long epoch) {
        return incoming(layout.rankFileTmp(epoch, rank), layout.rankFile(epoch, rank), epoch, rank);
    }

    private IncomingRankFile incoming(Path tmp, Path target, long epoch, int fileRank) {
        try {
            DurableFiles.createDirectories(target.getParent());
            return new IncomingRankFile(tmp, target, job, epoch, fileRank, size);
        } catch (IOException e) {
            throw cannot("open " + tmp, e);
        }
    }

    /** Checks this rank's own file twice (header, COMMIT entry); loads the state when {@code load}. */
    public RankFileReader.Checked checkOwnFile(long epoch, CommitFile commit, boolean load) {
        return RankFileReader.check(layout.rankFile(epoch, rank), job, epoch, rank, size, commit, load);
    }

    /** Checks the buddy copy of {@code fileRank}'s file twice, without loading its state. */
    public RankFileReader.Checked checkBuddyCopy(long epoch, int fileRank, CommitFile commit) {
        return RankFileReader.check(layout.buddyFile(epoch, fileRank), job, epoch, fileRank, size, commit, false);
    }

    /** Stores the COMMIT of {@code epoch}: this rank's temporary name, fsync, rename, fsync of the directory. */
    public void writeCommit(long epoch, byte[] commit) {
        try {
            DurableFiles.createDirectories(layout.epochDir(epoch));
            DurableFiles.writeAtomically(layout.commitTmp(epoch, rank), layout.commit(epoch), commit);
        } catch (IOException e) {
            throw cannot("write the COMMIT of epoch " + epoch, e);
        }
    }

    /**
     * The bytes of the COMMIT of {@code epoch}, or {@code null} when there is none. A file longer than any COMMIT is
     * refused (H1621) before it is read.
     */
    public byte[] readCommit(long epoch) {
        Path file = layout.commit(epoch);
        try {
            long length = Files.size(file);
            if (length > CommitLayout.MAX_LENGTH) {
                throw new SperliException(ErrorCode.H1621, "COMMIT of epoch " + epoch + " has " + length
                        + " bytes, at most " + CommitLayout.MAX_LENGTH);
            }
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            throw new SperliException(ErrorCode.H1621, "COMMIT of epoch " + epoch + " cannot be read: "
                    + e.getMessage());
        }
    }

    /** Whether {@code epoch} holds a COMMIT file whose bytes equal {@code commit}. */
    public boolean holdsCommit(long epoch, byte[] commit) {
        try {
            return Arrays.equals(readCommit(epoch), commit);
        } catch (SperliException e) {
            return false;
        }
    }

    /** The epochs that have a directory here, newest first. */
    public List<Long> epochsNewestFirst() {
        List<Long> epochs = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(layout.jobDir())) {
            for (Path entry : entries) {
                long epoch = EpochLayout.parseEpoch(entry.getFileName().toString());
                if (epoch > 0 && Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)) {
                    epochs.add(epoch);
                }
            }
        } catch (NoSuchFileException e) {
            return List.of();
        } catch (IOException e) {
            throw cannot("list " + layout.jobDir(), e);
        }
        epochs.sort(Comparator.reverseOrder());
        return epochs;
    }

    /**
     * After the COMMIT of {@code epoch}: deletes every epoch directory older than {@code epoch - 1}, committed or not.
     * Later epochs are left alone (a rank further on may be writing them), and so is anything that is not an epoch.
     */
    public void retain(long epoch) {
        try {
            boolean deleted = false;
            for (long e : epochsNewestFirst()) {
                if (e < epoch - 1) {
                    DurableFiles.deleteTree(layout.epochDir(e));
                    deleted = true;
                }
            }
            if (deleted) {
                DurableFiles.syncDirectory(layout.jobDir());
            }
        } catch (IOException e) {
            throw cannot("delete epochs older than " + (epoch - 1), e);
        }
    }

    /** Keeps the job public key as {@code <dir>/<job>/job.pub} unless the same bytes are already there. */
    public void writeJobPublicKey(byte[] publicKey) {
        Path file = layout.jobDir().resolve(JOB_PUBLIC_KEY);
        try {
            if (Files.isRegularFile(file) && Files.size(file) == publicKey.length
                    && Arrays.equals(Files.readAllBytes(file), publicKey)) {
                return;
            }
            DurableFiles.createDirectories(layout.jobDir());
            DurableFiles.writeAtomically(layout.jobDir().resolve(JOB_PUBLIC_KEY + ".tmp"), file, publicKey);
        } catch (IOException e) {
            throw cannot("write " + file, e);
        }
    }

    /** H1619 for a file operation that failed: "cannot " and {@code what}, and the failure in words. */
    static SperliException cannot(String what, IOException e) {
        return new SperliException(ErrorCode.H1619, "cannot " + what + ": " + DurableFiles.reason(e), e);
    }
}
