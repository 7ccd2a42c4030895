package org.sperli.bench;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.sperli.Communicator;
import org.sperli.ElementType;
import org.sperli.ReduceOp;
import org.sperli.Request;
import org.sperli.collective.Combine;

/**
 * An allreduce that spreads the work over every rank instead of the star of protocol section 7.4, written on the
 * public API for {@link AllreduceShapeBench} alone: it is not what a rank does, and its DATA messages use two user
 * tags ({@link #CONTRIBUTION_TAG}, {@link #RESULT_TAG}) that a job of its own must leave free.
 *
 * <p>The data is cut into {@code size} segments on element boundaries, segment {@code s} owned by rank {@code s}:
 *
 * <ol>
 *   <li>every rank sends segment {@code s} of its data to rank {@code s} (a reduce-scatter);</li>
 *   <li>rank {@code s} folds the segments it received and its own in ascending rank order, as the star's root folds
 *   whole contributions, so that every element is computed by the same operations in the same order and the result
 *   is bit for bit the star's;</li>
 *   <li>every rank sends its folded segment to every other rank (an allgather).</li>
 * </ol>
 *
 * <p>Traffic of one call, n ranks, d bytes: each rank sends and receives 2 (n - 1) d / n bytes, in all 2 (n - 1) d as
 * with the star, but the star's root alone sends and receives 2 (n - 1) d. So the two use the same CPU in all; what
 * differs is how much of it one rank must do before the call can end.
 */
final class MeshAllreduceSketch {
    /** The user tag of the reduce-scatter's messages. */
    static final int CONTRIBUTION_TAG = 2_000_000_001;
    /** The user tag of the allgather's messages. */
    static final int RESULT_TAG = 2_000_000_002;

    private MeshAllreduceSketch() {
    }

    /** The allreduce of {@code data} over every rank of {@code comm}; the same bytes as the star's. */
    static byte[] allreduce(Communicator comm, byte[] data, ElementType type, ReduceOp op) {
        int n = comm.size();
        int me = comm.rank();
        int[] start = segmentStarts(data.length, type.width(), n);
        Request<Void>[] sends = newRequests(2 * (n - 1));
        Request<byte[]>[] received = newRequests(n);
        for (int peer = 0; peer < n; peer++) {
            received[peer] = peer == me ? null : comm.irecv(peer, CONTRIBUTION_TAG);
        }
        for (int k = 1; k < n; k++) {
            int peer = (me + k) % n;
            sends[k - 1] = comm.isend(peer, CONTRIBUTION_TAG, segment(data, start, peer));
        }
        byte[] folded = null;
        for (int rank = 0; rank < n; rank++) {
            byte[] part = rank == me ? Arrays.copyOfRange(data, start[me], start[me + 1]) : received[rank].await();
            if (folded == null) {
                folded = part;
            } else {
                Combine.into(folded, part, type, op);
            }
        }
        byte[] result = new byte[data.length];
        System.arraycopy(folded, 0, result, start[me], folded.length);
        for (int peer = 0; peer < n; peer++) {
            received[peer] = peer == me ? null : comm.irecv(peer, RESULT_TAG);
        }
        for (int k = 1; k < n; k++) {
            sends[n - 2 + k] = comm.isend((me + k) % n, RESULT_TAG, ByteBuffer.wrap(folded));
        }
        for (int peer = 0; peer < n; peer++) {
            if (peer != me) {
                byte[] part = received[peer].await();
                System.arraycopy(part, 0, result, start[peer], part.length);
            }
        }
        for (Request<Void> send : sends) {
            send.await();
        }
        return result;
    }

    /**
     * Where each rank's segment starts, and at index {@code ranks} the end: whole elements, the segments' lengths at
     * most one element apart (rank r's segment starts at element floor(elements * r / ranks)).
     */
    static int[] segmentStarts(int length, int width, int ranks) {
        int elements = length / width;
        int[] start = new int[ranks + 1];
        for (int rank = 0; rank <= ranks; rank++) {
            start[rank] = (int) ((long) elements * rank / ranks) * width;
        }
        return start;
    }

    private static ByteBuffer segment(byte[] data, int[] start, int rank) {
        return ByteBuffer.wrap(data, start[rank], start[rank + 1] - start[rank]);
    }

    @SuppressWarnings("unchecked")
    private static <T> Request<T>[] newRequests(int count) {
        return (Request<T>[]) new Request<?>[count];
    }
}
