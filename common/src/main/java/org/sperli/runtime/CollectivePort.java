package org.sperli.runtime;

import java.nio.ByteBuffer;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.protocol.payload.Abort;
import org.sperli.protocol.payload.CollectiveHeader;

/**
 * What a schedule of {@link MeshCollectives} needs of the wire: COLLECTIVE frames out and in, checked against the
 * call, and the job-ending refusals. {@link WirePort} is the rank's own, over TLS; the tests of this package run the
 * schedules of many ranks in one JVM over queues, so that their bytes can be compared for many sizes and rank counts
 * without a TLS handshake each.
 */
interface CollectivePort {
    int rank();

    int size();

    /** Forgets the sends of a call that failed; a call begins with it. */
    void begin();

    /**
     * Starts sending [{@code header}][{@code data}] to {@code dest}. The data is sent from the buffer itself when it
     * is large ({@link CollectiveWire#COPY_AT_MOST}), so it must not change until {@link #awaitSends} returned.
     */
    void send(int dest, CollectiveHeader header, ByteBuffer data);

    /** Waits until every send of this call was taken by the transport. */
    void awaitSends();

    /** The next COLLECTIVE frame from {@code peer}, which must answer {@code call} in {@code phase} (else H1617). */
    Incoming receive(int peer, CollectiveCall call, int phase);

    /** As {@link #receive}, for a frame that may answer in either of two phases; {@link Incoming#phase} says which. */
    Incoming receiveEither(int peer, CollectiveCall call, int phase, int otherPhase);

    /** Ends the job because a frame from {@code peer} does not answer {@code call}: ABORT reason 3, H1617. */
    SperliException mismatch(CollectiveCall call, int peer, String fault);

    /** Sends ABORT to every rank and returns what this rank's call throws (the job's failure). */
    SperliException endJob(Abort.Reason reason, ErrorCode code, CollectiveCall call, String fault);

    /** A checked frame's data, valid until {@link #close}. */
    interface Incoming extends AutoCloseable {
        /** The phase the frame's header named. */
        int phase();

        /** The data after the collective header; its array may be the frame's own. */
        ByteBuffer data();

        /**
         * The data as an array for the caller to keep: the frame's own array when it has one (large data), handed
         * over without a copy, else a copy.
         */
        byte[] toArray();

        /** The data was only read: its array may serve later frames once this closes. */
        void recycleOnClose();

        @Override
        void close();
    }
}
