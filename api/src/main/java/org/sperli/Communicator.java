package org.sperli;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;

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
     * Checkpoints {@code state} on every rank (collective: every rank calls it, in the same order relative to the
     * other collectives) and returns the committed epoch: 1 for the first checkpoint of a job, then the last committed
     * or resumed epoch + 1. Returns once the COMMIT of the epoch, signed by rank 0 with the job key, is on this rank's
     * disk together with its own rank file and the copy it keeps for its predecessor; the state has been written
     * through {@link Checkpointable#writeCheckpoint} on the calling thread, exactly once.
     *
     * <p>Refused before anything is sent (H1618, the job goes on) when checkpoints are off (no checkpoint directory)
     * or {@code state} is null. With an isend or irecv still open on any rank the checkpoint fails with H1624 on every
     * rank and the job ends (a rank that sees a third rank close before that rank's ABORT reaches it reports H1613, as
     * for any ABORT); any other failure ends the job as well (ABORT reason 5 with the failure's code: H1619 a
     * file that cannot be written or is not the one expected, H1620 a SHA-256 that does not match, H1621 a COMMIT that
     * does not verify, H1623 another size).
     */
    long checkpoint(Checkpointable state);

    /**
     * The state this rank resumed from after a restart: the epoch of the COMMIT resumed and this rank's bytes of it.
     * Empty at a fresh start: at incarnation 1, with checkpoints off, or when no COMMIT existed anywhere. A resume that
     * fails ends the job before the program starts (H1619 to H1623).
     */
    Optional<Restored> restored();

    /**
     * Sends the bytes from position to limit to {@code dest} with {@code tag}. Returns once the bytes have been handed
     * to TLS, or, for a message of at most 8 KiB, copied (an eager send, as MPI's); either way the buffer may then be
     * reused. A slow receiver slows the sender here, eager sends included once some 64 KiB wait for the connection. A
     * send that fails after an eager return fails the job, which the next call reports. An interrupt does not end a
     * send's wait: the call returns once TLS took the bytes, with the thread's interrupt set.
     */
    void send(int dest, int tag, ByteBuffer data);

    /** Sends a whole array; see {@link #send(int, int, ByteBuffer)}. */
    default void send(int dest, int tag, byte[] data) {
        send(dest, tag, ByteBuffer.wrap(data));
    }

    /**
     * Blocks until the next message from {@code source} with {@code tag} arrives and returns it. An interrupt does not
     * end the wait: the call returns with the message and the thread's interrupt set (an {@link #irecv} awaited with a
     * bound is the receive that an interrupt ends).
     */
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
        return PrimitiveArrayBytes.ints(allreduce(PrimitiveArrayBytes.bytes(data), ElementType.I32, op));
    }

    /** {@link #allreduce(byte[], ElementType, ReduceOp)} over i64 elements; returns a new array. */
    default long[] allreduce(long[] data, ReduceOp op) {
        return PrimitiveArrayBytes.longs(allreduce(PrimitiveArrayBytes.bytes(data), ElementType.I64, op));
    }

    /** {@link #allreduce(byte[], ElementType, ReduceOp)} over f32 elements; returns a new array. */
    default float[] allreduce(float[] data, ReduceOp op) {
        return PrimitiveArrayBytes.floats(allreduce(PrimitiveArrayBytes.bytes(data), ElementType.F32, op));
    }

    /** {@link #allreduce(byte[], ElementType, ReduceOp)} over f64 elements; returns a new array. */
    default double[] allreduce(double[] data, ReduceOp op) {
        return PrimitiveArrayBytes.doubles(allreduce(PrimitiveArrayBytes.bytes(data), ElementType.F64, op));
    }

    /**
     * {@link #reduce(int, byte[], ElementType, ReduceOp)} over i32 elements: a new array at the root, {@code null}
     * elsewhere. Unsigned elements go through the byte form with {@link ElementType#U32} or {@link ElementType#U64}.
     */
    default int[] reduce(int root, int[] data, ReduceOp op) {
        return PrimitiveArrayBytes.ints(reduce(root, PrimitiveArrayBytes.bytes(data), ElementType.I32, op));
    }

    /** As {@link #reduce(int, int[], ReduceOp)} over i64 elements. */
    default long[] reduce(int root, long[] data, ReduceOp op) {
        return PrimitiveArrayBytes.longs(reduce(root, PrimitiveArrayBytes.bytes(data), ElementType.I64, op));
    }

    /** As {@link #reduce(int, int[], ReduceOp)} over f32 elements. */
    default float[] reduce(int root, float[] data, ReduceOp op) {
        return PrimitiveArrayBytes.floats(reduce(root, PrimitiveArrayBytes.bytes(data), ElementType.F32, op));
    }

    /** As {@link #reduce(int, int[], ReduceOp)} over f64 elements. */
    default double[] reduce(int root, double[] data, ReduceOp op) {
        return PrimitiveArrayBytes.doubles(reduce(root, PrimitiveArrayBytes.bytes(data), ElementType.F64, op));
    }

    // values of an array type (org.sperli.array)

    /**
     * Sends {@code valueAtRootOrNull} of the root to every rank through its array type and returns it there: at the
     * root the value passed in itself, elsewhere a new value decoded from the root's encoding. Refusals as
     * {@link #bcast(int, byte[])}; an encoding the type refuses or that is over {@link #MAX_COLLECTIVE_DATA} bytes is
     * refused at the root (H1618, the call still counts). A value that does not decode is H1618 at the rank that
     * received it, after the call completed.
     *
     * @param type how values are encoded, for example {@link org.sperli.array.ArrayTypes#F64} or
     *             {@link org.sperli.array.ArrayTypes#MATRIX_2D}; the
     *             same on every rank
     */
    default <T> T bcast(int root, T valueAtRootOrNull, ArrayType<T> type) {
        return ArrayTypeCollectives.bcast(this, root, valueAtRootOrNull, type);
    }

    /**
     * Collects every rank's value at the root through its array type, as {@link #gather(int, byte[])}: encodings of
     * different length end the job (H1617 at the root), so values must encode to the same length.
     *
     * @return at the root, an unmodifiable list of the values by rank, the root's own being the value passed in;
     *     {@code null} elsewhere
     */
    default <T> List<T> gather(int root, T value, ArrayType<T> type) {
        return ArrayTypeCollectives.gather(this, root, value, type);
    }

    /**
     * Sends value r of the root's list to rank r through its array type, as {@link #scatter(int, List)}; the values
     * may encode to different lengths. At the root the value in the list itself is returned.
     */
    default <T> T scatter(int root, List<T> valuesAtRootOrNull, ArrayType<T> type) {
        return ArrayTypeCollectives.scatter(this, root, valuesAtRootOrNull, type);
    }

    /**
     * Reduces every rank's value at the root, ((v0 op v1) op v2) ... in ascending rank order, with the value's element
     * type and {@code op} in the collective header. A flat value ({@link ArrayType#isFlat()}) goes through
     * {@link #reduce(int, byte[], ElementType, ReduceOp)}: combine folds the wire bytes. A value with a shape is
     * encoded, sent to the root, and folded there with {@link ArrayType#reduce}; a contribution the fold refuses
     * (shapes that differ, a cut encoding) ends the job like contributions of different length: H1618 at the root,
     * H1612 at the others. A type and operation that do not go together are refused on every rank before anything is
     * sent (H1618).
     *
     * @return a new value at the root (equal to the value given with one rank); {@code null} elsewhere
     */
    default <T> T reduce(int root, T value, ReduceOp op, ArrayType<T> type) {
        return ArrayTypeCollectives.reduce(this, root, value, op, type);
    }

    /**
     * {@link #reduce(int, Object, ReduceOp, ArrayType)} at rank 0, whose result is then sent to every rank:
     * {@code comm.allreduce(matrix, ReduceOp.SUM, ArrayTypes.MATRIX_2D)} sums matrices element by element without a
     * byte of serialization in the program.
     *
     * @return a new value, the same on every rank
     */
    default <T> T allreduce(T value, ReduceOp op, ArrayType<T> type) {
        return ArrayTypeCollectives.allreduce(this, value, op, type);
    }

    /**
     * Sends {@code value} encoded by {@code type} as one DATA message; see {@link #send(int, int, ByteBuffer)}. An
     * encoding over {@link #MAX_MESSAGE} bytes is refused (H1618) before anything is allocated for it.
     */
    default <T> void send(int dest, int tag, T value, ArrayType<T> type) {
        ArrayTypeCollectives.send(this, dest, tag, value, type);
    }

    /**
     * Receives the next message from {@code source} with {@code tag} and decodes it with {@code type}. A message that
     * does not decode is consumed and refused (H1618).
     */
    default <T> T recv(int source, int tag, ArrayType<T> type) {
        return ArrayTypeCollectives.recv(this, source, tag, type);
    }

    /**
     * {@link #reduce(int, byte[], ElementType, ReduceOp)} whose root folds the contributions with {@code fold}
     * instead of combine: the plumbing of {@link #reduce(int, Object, ReduceOp, ArrayType)} for values with a shape.
     * The frames carry {@code type} and {@code op} as given. Checked before anything is sent (H1618): the root, the
     * type and operation together, data present and at most {@link #MAX_COLLECTIVE_DATA} bytes (not whole elements,
     * since an encoding may carry its shape). Anything the fold throws ends the job: H1618 at the root (ABORT reason
     * 3, code 1618), H1612 at the others.
     *
     * @param fold used at the root only, given every contribution in ascending rank order
     * @return the fold's result at the root (the data as given with one rank); {@code null} elsewhere
     */
    byte[] reduce(int root, byte[] data, ElementType type, ReduceOp op, ContributionFold fold);

    /**
     * {@link #reduce(int, byte[], ElementType, ReduceOp, ContributionFold)} at rank 0, whose result is then sent to
     * every rank; a result of another length than the contribution ends the job with H1617.
     */
    byte[] allreduce(byte[] data, ElementType type, ReduceOp op, ContributionFold fold);
}
