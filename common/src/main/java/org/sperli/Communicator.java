package org.sperli;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * One rank's view of a running job, with MPI's semantics and none of its API. All calls block the calling thread
 * (the nonblocking forms return a {@link Request}); heartbeats run in the background, so a rank that computes stays
 * alive. Every failure is a {@link SperliException} carrying its H code: H1618 for a call refused before anything was
 * sent (the job goes on), H1612 when another rank aborted the job, H1613 when a peer was lost, and so on.
 *
 * <p>Messages between two ranks arrive in the order sent and are matched by (source, tag); tags are 0..2147483647.
 * A message is at most 16 MiB ({@link #MAX_MESSAGE}); larger data must be split by the caller.
 *
 * <p><b>Collectives.</b> {@link #barrier}, {@link #bcast}, {@link #reduce}, {@link #allreduce}, {@link #gather} and
 * {@link #scatter} run over a star around the root (rank 0 for barrier and allreduce), so results never depend on
 * timing. Every rank must make the same collective calls in the same order: each call of a rank is numbered from 1,
 * refused calls included, and a frame from a call of another number, operation, type, reduce operation or root ends
 * the job (H1617 at the rank that sees it, H1612 at the others, or H1613 at a rank that sees a third rank close
 * before the ABORT reaches it). Collective data is at most
 * {@link #MAX_COLLECTIVE_DATA} bytes (per block for gather and scatter). Arguments every rank can check alone are
 * checked before anything is sent: H1618, and the job goes on. Collectives and point-to-point messages do not
 * overtake or consume each other. With one rank no frame is sent and the data is returned as given.
 */
public interface Communicator {
    /** Largest message: 16 MiB. */
    int MAX_MESSAGE = 16 * 1024 * 1024;
    /** Largest user tag. */
    int MAX_TAG = Integer.MAX_VALUE;
    /** Largest collective data (and scatter or gather block): 16 MiB less the 16-byte collective header. */
    int MAX_COLLECTIVE_DATA = MAX_MESSAGE - 16;

    /** This rank, 0..size-1. */
    int rank();

    /** Ranks in the job, 1..4096. */
    int size();

    /** The incarnation: 1 at the first start, +1 at every restart by the launcher. */
    long incarnation();

    /**
     * Sends the bytes from position to limit to {@code dest} with {@code tag}. Returns once the bytes have been handed
     * to TLS, after which the buffer may be reused; a slow receiver slows the sender here.
     */
    void send(int dest, int tag, ByteBuffer data);

    /** Sends a whole array; see {@link #send(int, int, ByteBuffer)}. */
    default void send(int dest, int tag, byte[] data) {
        send(dest, tag, ByteBuffer.wrap(data));
    }

    /** Blocks until the next message from {@code source} with {@code tag} arrives and returns it. */
    byte[] recv(int source, int tag);

    /** Starts a send; the buffer must not be changed until the request completes. */
    Request<Void> isend(int dest, int tag, ByteBuffer data);

    /** Starts a receive of the next message from {@code source} with {@code tag}. */
    Request<byte[]> irecv(int source, int tag);

    /**
     * Returns once every rank has entered its barrier. H1618 is never thrown: a barrier has no arguments.
     */
    void barrier();

    /**
     * Sends the root's data to every rank and returns it there; at the root the array passed in is returned itself.
     *
     * @param root              the rank whose data is sent, 0..size-1 (else H1618 on every rank)
     * @param dataAtRootOrNull  the data at the root, at most {@link #MAX_COLLECTIVE_DATA} bytes (else H1618 at the
     *                          root alone, which leaves the other ranks behind by one call); ignored at other ranks
     * @return the root's data, a new array except at the root
     */
    byte[] bcast(int root, byte[] dataAtRootOrNull);

    /**
     * Reduces every rank's contribution element by element at the root: ((c0 op c1) op c2) ..., in ascending rank
     * order whatever the root, so that float results are bit-exact on every run. Refused with H1618 on every rank
     * before anything is sent: a root out of range, a type and operation that do not go together (table of
     * {@link ReduceOp#allowedFor}), data that is not a whole number of elements or is over
     * {@link #MAX_COLLECTIVE_DATA} bytes; a null type, operation or data is refused the same way. A contribution of
     * another length than the root's ends the job: H1618 at the root, H1612 at the others.
     *
     * @param data  this rank's contribution, elements least significant byte first; not changed
     * @return a new array with the result at the root (the data as given with one rank); {@code null} elsewhere
     */
    byte[] reduce(int root, byte[] data, ElementType type, ReduceOp op);

    /**
     * {@link #reduce} at rank 0, whose result is then sent to every rank: every rank returns the same bytes. A
     * result of another length than the contribution ends the job with H1617.
     *
     * @return a new array with the result (the data as given with one rank)
     */
    byte[] allreduce(byte[] data, ElementType type, ReduceOp op);

    /**
     * Collects one block from every rank at the root. Blocks may be empty; each is at most
     * {@link #MAX_COLLECTIVE_DATA} bytes (else H1618 at the rank that holds it). A block of another length than the
     * root's own ends the job: H1617 at the root, H1612 at the others.
     *
     * @return at the root, an unmodifiable list of the blocks by rank, the root's own block being the array passed
     *     in; {@code null} elsewhere
     */
    List<byte[]> gather(int root, byte[] data);

    /**
     * Sends block r of the root's list to rank r and returns each rank its block (at the root, the array in the list
     * itself). Blocks may be empty and may differ in length. A root whose list does not hold exactly one block per
     * rank, or has a null block or one over {@link #MAX_COLLECTIVE_DATA} bytes, ends the job: H1618 at the root
     * (ABORT reason 4), H1612 at the others.
     *
     * @param blocksAtRootOrNull  one block per rank, by rank, at the root; ignored at other ranks
     * @return this rank's block, a new array except at the root
     */
    byte[] scatter(int root, List<byte[]> blocksAtRootOrNull);

    /** {@link #allreduce(byte[], ElementType, ReduceOp)} over i32 elements; returns a new array. */
    default int[] allreduce(int[] data, ReduceOp op) {
        return CollectiveArrays.ints(allreduce(CollectiveArrays.bytes(data), ElementType.I32, op));
    }

    /** {@link #allreduce(byte[], ElementType, ReduceOp)} over i64 elements; returns a new array. */
    default long[] allreduce(long[] data, ReduceOp op) {
        return CollectiveArrays.longs(allreduce(CollectiveArrays.bytes(data), ElementType.I64, op));
    }

    /** {@link #allreduce(byte[], ElementType, ReduceOp)} over f32 elements; returns a new array. */
    default float[] allreduce(float[] data, ReduceOp op) {
        return CollectiveArrays.floats(allreduce(CollectiveArrays.bytes(data), ElementType.F32, op));
    }

    /** {@link #allreduce(byte[], ElementType, ReduceOp)} over f64 elements; returns a new array. */
    default double[] allreduce(double[] data, ReduceOp op) {
        return CollectiveArrays.doubles(allreduce(CollectiveArrays.bytes(data), ElementType.F64, op));
    }

    /**
     * {@link #reduce(int, byte[], ElementType, ReduceOp)} over i32 elements: a new array at the root, {@code null}
     * elsewhere. Unsigned elements go through the byte form with {@link ElementType#U32} or {@link ElementType#U64}.
     */
    default int[] reduce(int root, int[] data, ReduceOp op) {
        return CollectiveArrays.ints(reduce(root, CollectiveArrays.bytes(data), ElementType.I32, op));
    }

    /** As {@link #reduce(int, int[], ReduceOp)} over i64 elements. */
    default long[] reduce(int root, long[] data, ReduceOp op) {
        return CollectiveArrays.longs(reduce(root, CollectiveArrays.bytes(data), ElementType.I64, op));
    }

    /** As {@link #reduce(int, int[], ReduceOp)} over f32 elements. */
    default float[] reduce(int root, float[] data, ReduceOp op) {
        return CollectiveArrays.floats(reduce(root, CollectiveArrays.bytes(data), ElementType.F32, op));
    }

    /** As {@link #reduce(int, int[], ReduceOp)} over f64 elements. */
    default double[] reduce(int root, double[] data, ReduceOp op) {
        return CollectiveArrays.doubles(reduce(root, CollectiveArrays.bytes(data), ElementType.F64, op));
    }
}
