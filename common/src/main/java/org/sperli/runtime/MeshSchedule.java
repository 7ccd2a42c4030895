package org.sperli.runtime;

/**
 * The fixed choices of the mesh collectives (protocol section 7.4.1): which schedule a call takes, as a function of
 * the job's size and the call's bytes and element width only, never of timing; where a segment or a piece begins;
 * who a rank's parent and children are in a binomial tree. Every rank computes the same answers from the same call.
 *
 * <pre>
 * call                  bytes B          schedule
 * reduce, allreduce     B &lt; 65536       gather to the owner (the root; rank 0 for allreduce), which folds
 *                                        allreduce: the result down the binomial tree from rank 0
 * reduce, allreduce     B &gt;= 65536      segment k (elements k*E/size .. (k+1)*E/size - 1) to owner k, which
 *                                        folds it; the folded segments to the root (reduce) or to every rank
 * bcast                 B &lt; 65536       the root's data to every rank (as the star), or size 2
 * bcast                 B &gt;= 65536      piece i of B/(size-1) to the i-th non-root, which sends it to the others
 * barrier               -                dissemination: round k to rank + 2^k, from rank - 2^k (mod size)
 * gather, scatter       -                the star's frames: the root moves (size-1)*B in any schedule
 * </pre>
 */
final class MeshSchedule {
    /** Bytes of reduce and allreduce data from which contributions are segmented among owners. */
    static final int SEGMENTS_AT = 65536;
    /** Bytes of bcast data from which the root sends pieces that the others pass on. */
    static final int PIECES_AT = 65536;

    private MeshSchedule() {
    }

    /**
     * Whether a reduce or allreduce of {@code bytes} segments its data: from 64 KiB every segment has at least two
     * elements (at most 4096 ranks, elements at most 8 bytes), below it the message count of N segments costs more
     * than the root's bytes.
     */
    static boolean segmented(int size, int bytes) {
        return size > 1 && bytes >= SEGMENTS_AT;
    }

    /** Whether the bcast root sends pieces (it alone knows the bytes; the others learn it from the phase). */
    static boolean pieces(int size, int bytes) {
        return size > 2 && bytes >= PIECES_AT;
    }

    /** First byte of segment {@code k} of {@code bytes} in elements of {@code width} bytes over {@code size}. */
    static int segmentStart(int k, int bytes, int width, int size) {
        long elements = bytes / width;
        return (int) (k * elements / size * width);
    }

    /** First byte of piece {@code i} of {@code bytes} over {@code holders} ranks (bytes, not elements). */
    static int pieceStart(int i, long bytes, int holders) {
        return (int) (i * bytes / holders);
    }

    /** The binomial tree's parent of {@code rank} with root {@code root}; the root has none (-1). */
    static int parent(int rank, int root, int size) {
        int v = relative(rank, root, size);
        return v == 0 ? -1 : absolute(v - Integer.lowestOneBit(v), root, size);
    }

    /**
     * The mask of {@code rank}'s first child: its children are relative rank + m for m = mask/2, mask/4, .. 1, those
     * below size, sent to in that order (the largest subtree first).
     */
    static int childMask(int rank, int root, int size) {
        int v = relative(rank, root, size);
        return v == 0 ? Integer.highestOneBit(Math.max(1, size - 1)) << 1 : Integer.lowestOneBit(v);
    }

    static int relative(int rank, int root, int size) {
        return (rank - root + size) % size;
    }

    static int absolute(int relative, int root, int size) {
        return (relative + root) % size;
    }
}
