package org.sperli.checkpoint;

import java.nio.file.Path;
import java.util.Objects;
import org.sperli.protocol.CanonicalDecimal;
import org.sperli.protocol.JobId;
import org.sperli.protocol.Limits;

/**
 * Where the checkpoint files of one job live (original text and tables section 6); paths only, no I/O.
 *
 * <pre>
 * &lt;dir&gt;/&lt;job id, 32 lower-case hex digits&gt;/&lt;epoch, decimal from 1&gt;/
 *     rank-&lt;n&gt;.ckpt          this rank's file      rank-&lt;n&gt;.ckpt.tmp          while it is written
 *     rank-&lt;r&gt;.ckpt.buddy    the copy of rank r     rank-&lt;r&gt;.ckpt.buddy.tmp    while it is received
 *     COMMIT                   the signed COMMIT      COMMIT.tmp                   while rank 0 writes it
 *                                                     COMMIT.&lt;n&gt;.tmp               while rank n &gt; 0 keeps its
 * copy
 * </pre>
 *
 * <p>Every rank keeps a copy of the COMMIT. Ranks of one job on one host may share a directory, so each rank writes
 * its copy under a temporary name of its own; the contents are the same bytes, and the rename is atomic.
 *
 * <p>Rank n's buddy is (n + 1) mod size, so rank n holds the copy of r = (n - 1) mod size. Epochs and ranks are
 * checked before they become path elements: a path built here never leaves the job directory.
 */
public final class EpochLayout {
    private static final long MAX_EPOCH = 0xffff_ffffL;

    private final Path jobDir;

    private EpochLayout(Path jobDir) {
        this.jobDir = jobDir;
    }

    /** The layout of {@code job} under the checkpoint directory {@code dir}. */
    public static EpochLayout of(Path dir, JobId job) {
        return new EpochLayout(Objects.requireNonNull(dir, "dir").resolve(job.hex()));
    }

    /** {@code <dir>/<job>}. */
    public Path jobDir() {
        return jobDir;
    }

    /** {@code <dir>/<job>/<epoch>}, epoch 1..4294967295. */
    public Path epochDir(long epoch) {
        if (epoch < 1 || epoch > MAX_EPOCH) {
            throw new IllegalArgumentException("epoch=" + epoch + ", expected 1..4294967295");
        }
        return jobDir.resolve(Long.toString(epoch));
    }

    /** {@code rank-<n>.ckpt}. */
    public Path rankFile(long epoch, int rank) {
        return epochDir(epoch).resolve(rankName(rank) + ".ckpt");
    }

    /** {@code rank-<n>.ckpt.tmp}. */
    public Path rankFileTmp(long epoch, int rank) {
        return epochDir(epoch).resolve(rankName(rank) + ".ckpt.tmp");
    }

    /** {@code rank-<r>.ckpt.buddy}: the copy of rank {@code rank}'s file held by its buddy. */
    public Path buddyFile(long epoch, int rank) {
        return epochDir(epoch).resolve(rankName(rank) + ".ckpt.buddy");
    }

    /** {@code rank-<r>.ckpt.buddy.tmp}. */
    public Path buddyFileTmp(long epoch, int rank) {
        return epochDir(epoch).resolve(rankName(rank) + ".ckpt.buddy.tmp");
    }

    /** {@code COMMIT}. */
    public Path commit(long epoch) {
        return epochDir(epoch).resolve("COMMIT");
    }

    /** {@code COMMIT.tmp}. */
    public Path commitTmp(long epoch) {
        return epochDir(epoch).resolve("COMMIT.tmp");
    }

    /**
     * The temporary name under which {@code rank} writes its copy of the COMMIT: {@code COMMIT.tmp} at rank 0, else
     * {@code COMMIT.<rank>.tmp}.
     */
    public Path commitTmp(long epoch, long rank) {
        return rank == 0 ? commitTmp(epoch) : epochDir(epoch).resolve("COMMIT." + rank + ".tmp");
    }

    /** The rank that keeps {@code rank}'s copy: (rank + 1) mod size. */
    public static int buddyOf(int rank, int size) {
        checkRank(rank, size);
        return (rank + 1) % size;
    }

    /** The rank whose copy {@code rank} keeps: (rank - 1) mod size. */
    public static int buddySourceOf(int rank, int size) {
        checkRank(rank, size);
        return (rank + size - 1) % size;
    }

    /**
     * The epoch an epoch directory's name stands for, or -1 when the name is not one this layout makes (decimal
     * 1..4294967295 without sign or leading zeros), so that a scan for the newest epoch skips anything else.
     */
    public static long parseEpoch(String name) {
        long epoch = CanonicalDecimal.parse(name, MAX_EPOCH);
        return epoch >= 1 ? epoch : -1;
    }

    private static String rankName(int rank) {
        if (rank < 0 || rank >= Limits.MAX_SIZE) {
            throw new IllegalArgumentException("rank=" + rank + ", expected 0..4095");
        }
        return "rank-" + rank;
    }

    private static void checkRank(int rank, int size) {
        if (size < Limits.MIN_SIZE || size > Limits.MAX_SIZE || rank < 0 || rank >= size) {
            throw new IllegalArgumentException(
                    "rank=" + rank + ", size=" + size + ", expected 0 <= rank < size <= 4096");
        }
    }

    @Override
    public String toString() {
        return "EpochLayout[" + jobDir + "]";
    }
}
