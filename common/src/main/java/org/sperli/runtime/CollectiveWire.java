package org.sperli.runtime;

import java.nio.ByteBuffer;
import java.util.List;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.protocol.frame.FrameType;
import org.sperli.protocol.payload.Abort;
import org.sperli.protocol.payload.CollectiveHeader;
import org.sperli.transport.CollectiveParts;
import org.sperli.transport.Frame;

/**
 * The frames of the collectives: payloads out as [16-byte collective header][data] in COLLECTIVE frames (tag 0,
 * header epoch 0), frames in checked against the call they answer, and the job-ending refusals that only one rank can
 * make (ABORT reason 3 or 4).
 *
 * <p>Data of at most {@link #COPY_AT_MOST} bytes is copied behind the header into one array: one small allocation and
 * a single buffer for TLS to encrypt cost less than a composite buffer's bookkeeping at that size. Larger data is
 * never copied on the way out: the header and a wrapped view of the caller's array travel as two parts of one
 * payload, so the caller must not change the array until the send completed ({@link #awaitAll}).
 */
final class CollectiveWire {
    /** Largest data copied behind its header; larger data is sent from the caller's array itself. */
    static final int COPY_AT_MOST = 8192;

    private final FrameLink frames;

    CollectiveWire(FrameLink frames) {
        this.frames = frames;
    }

    /**
     * A payload built once and sendable to any number of peers: {@code body} is null when the data was copied into
     * {@code head}.
     */
    record Outgoing(ByteBuffer head, ByteBuffer body) {
    }

    /**
     * A checked frame and its data, valid until {@link #close} releases the frame. The data is read in place by the
     * runtime (writable when it is the frame's own array, so that a fold reads that array directly); a program's fold
     * gets it read-only. The frame's own data array is there when the decoder gathered the data apart from its header
     * ({@link CollectiveParts}); {@link #recycleOnClose} gives it back for later frames.
     */
    static final class Received implements CollectivePort.Incoming {
        private final Frame frame;
        private final int phase;
        private final ByteBuffer data;
        private final CollectiveParts partsOrNull;
        private boolean handedOut;
        private boolean recycle;

        private Received(Frame frame, int phase, ByteBuffer data, CollectiveParts partsOrNull) {
            this.frame = frame;
            this.phase = phase;
            this.data = data;
            this.partsOrNull = partsOrNull;
        }

        @Override
        public int phase() {
            return phase;
        }

        @Override
        public ByteBuffer data() {
            return data;
        }

        /**
         * The data as an array for the caller to keep: the frame's own data array when there is one, handed over
         * without a copy, or else a copy (data under 64 KiB, which shares a buffer with other frames).
         */
        @Override
        public byte[] toArray() {
            if (recycle) {
                throw new IllegalStateException("the data array is being given back");
            }
            if (partsOrNull != null) {
                handedOut = true;
                return partsOrNull.data();
            }
            byte[] out = new byte[data.remaining()];
            data.duplicate().get(out);
            return out;
        }

        /**
         * Gives the frame's own data array back when this closes ({@link org.sperli.transport.RecycledArrays}),
         * unless it was handed out: for a caller that only read the data and keeps no view of it, as the root's fold
         * with Combine.
         */
        @Override
        public void recycleOnClose() {
            recycle = !handedOut;
        }

        @Override
        public void close() {
            frame.release();
            if (recycle && partsOrNull != null) {
                partsOrNull.recycle();
            }
        }
    }

    static Outgoing payload(CollectiveHeader header, ByteBuffer data) {
        int n = data.remaining();
        if (n > COPY_AT_MOST) {
            // Not wrapped read-only: Netty would see no backing array and could take a slower path through TLS.
            return new Outgoing(ByteBuffer.wrap(header.toBytes()), data.duplicate());
        }
        byte[] whole = new byte[CollectiveHeader.LENGTH + n];
        ByteBuffer out = ByteBuffer.wrap(whole);
        header.write(out);
        out.put(data.duplicate());
        return new Outgoing(ByteBuffer.wrap(whole), null);
    }

    static Outgoing payload(CollectiveHeader header, byte[] data) {
        return payload(header, ByteBuffer.wrap(data));
    }

    /** Starts sending {@code payload} to {@code dest}; throws the job's failure or H1613 when it cannot start. */
    SendRequest send(int dest, Outgoing payload) {
        return payload.body() == null
                ? frames.send(dest, FrameType.COLLECTIVE, 0, 0, payload.head().duplicate())
                : frames.send(dest, FrameType.COLLECTIVE, 0, payload.head().duplicate(), payload.body().duplicate());
    }

    /** Waits until TLS has taken every send; throws the job's failure, or H1613 for a peer that is gone. */
    static void awaitAll(List<SendRequest> sends) {
        for (SendRequest send : sends) {
            send.await();
        }
    }

    /**
     * Waits for the next COLLECTIVE frame from {@code peer} and checks its header against {@code call} in
     * {@code phase}. A header that is cut, malformed or differs ends the job: ABORT reason 3, H1617. DATA frames that
     * arrived before it stay queued for recv.
     */
    Received receive(int peer, CollectiveCall call, int phase) {
        return receive(peer, call, phase, phase);
    }

    /** As {@link #receive(int, CollectiveCall, int)}, for a frame that may answer in {@code phase} or {@code other}. */
    Received receive(int peer, CollectiveCall call, int phase, int other) {
        Frame frame = frames.awaitCollective(peer);
        CollectiveParts parts = frame.payload() instanceof CollectiveParts p ? p : null;
        ByteBuffer payload = parts != null ? parts.nioBuffers()[0] : frame.payload().nioBuffer();
        CollectiveHeader header = null;
        String fault;
        try {
            header = CollectiveHeader.read(payload);
            fault = fault(header, call, phase, other);
        } catch (SperliException e) {
            fault = e.reason();
        }
        if (fault != null) {
            frame.release();
            throw mismatch(call, peer, fault);
        }
        return parts != null ? new Received(frame, header.phase(), ByteBuffer.wrap(parts.data()), parts)
                : new Received(frame, header.phase(), CollectiveHeader.data(payload), null);
    }

    /**
     * Where {@code header} differs from {@code call} in {@code phase}, or in {@code other} when it names that phase;
     * null when it answers the call.
     */
    static String fault(CollectiveHeader header, CollectiveCall call, int phase, int other) {
        return header.mismatch(call.header(header.phase() == other ? other : phase));
    }

    /** Ends the job because a frame from {@code peer} does not answer {@code call}: ABORT reason 3, H1617. */
    SperliException mismatch(CollectiveCall call, int peer, String fault) {
        return endJob(Abort.Reason.COLLECTIVE_MISMATCH, ErrorCode.H1617, call,
                "frame from rank " + peer + ": " + fault);
    }

    /**
     * Sends ABORT with {@code reason} and {@code code} to every rank and returns what this rank's call throws: the
     * job's failure, which is this one unless another rank's ABORT or a lost peer came first.
     */
    SperliException endJob(Abort.Reason reason, ErrorCode code, CollectiveCall call, String fault) {
        String message = "rank " + frames.rank() + ", " + call + ": " + fault;
        frames.abort(reason, code, message, null);
        SperliException failure = frames.failure();
        return failure == null ? new SperliException(code, message)
                : new SperliException(failure.code(), failure.reason(), failure);
    }
}
