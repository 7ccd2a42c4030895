package org.sperli;

import java.nio.ByteBuffer;

/**
 * One rank's view of a running job, with MPI's semantics and none of its API. All calls block the calling thread
 * (the nonblocking forms return a {@link Request}); heartbeats run in the background, so a rank that computes stays
 * alive. Every failure is a {@link SperliException} carrying its H code: H1618 for a call refused before anything was
 * sent (the job goes on), H1612 when another rank aborted the job, H1613 when a peer was lost, and so on.
 *
 * <p>Messages between two ranks arrive in the order sent and are matched by (source, tag); tags are 0..2147483647.
 * A message is at most 16 MiB ({@link #MAX_MESSAGE}); larger data must be split by the caller.
 */
public interface Communicator {
    /** Largest message: 16 MiB. */
    int MAX_MESSAGE = 16 * 1024 * 1024;
    /** Largest user tag. */
    int MAX_TAG = Integer.MAX_VALUE;

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
}
