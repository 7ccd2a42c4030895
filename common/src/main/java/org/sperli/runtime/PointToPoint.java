package org.sperli.runtime;

import java.nio.ByteBuffer;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.protocol.Limits;
import org.sperli.protocol.frame.FrameType;

/**
 * send, isend, recv and irecv of one rank: the checks every call makes before anything is sent or posted (H1618, the
 * job goes on), DATA frames out through the {@link FrameLink}, receives matched by the {@link Mailbox}.
 */
final class PointToPoint {
    private final FrameLink frames;
    private final Mailbox mailbox;
    private final OpenRequests open;

    PointToPoint(FrameLink frames, Mailbox mailbox, OpenRequests open) {
        this.frames = frames;
        this.mailbox = mailbox;
        this.open = open;
    }

    /**
     * A blocking send of at most this many bytes copies the message and returns without waiting for TLS to take the
     * copy, as MPI's eager sends do: the wait would cost a hand-off from the event loop back to the caller, as long as
     * the message's whole trip to a peer on the same host. Larger messages are sent from the caller's buffer.
     */
    static final int EAGER_BYTES = 8192;

    void send(int dest, int tag, ByteBuffer data) {
        if (data.remaining() > EAGER_BYTES) {
            startSend(dest, tag, data).awaitNanos(-1);
            return;
        }
        ByteBuffer copy = ByteBuffer.allocate(data.remaining()).put(data.duplicate()).flip();
        SendRequest request = startSend(dest, tag, copy);
        if (!request.mayLeaveEarly()) {
            // Failed already, or a receiver that falls behind: wait as a large send does.
            request.awaitNanos(-1);
        }
    }

    SendRequest isend(int dest, int tag, ByteBuffer data) {
        SendRequest request = startSend(dest, tag, data);
        request.countIn(open);
        return request;
    }

    byte[] recv(int source, int tag) {
        return post(source, tag).awaitNanos(-1);
    }

    RecvRequest irecv(int source, int tag) {
        RecvRequest request = post(source, tag);
        request.countIn(open);
        return request;
    }

    private SendRequest startSend(int dest, int tag, ByteBuffer data) {
        checkPeer("dest", dest);
        checkTag(tag);
        if (data.remaining() > Limits.MAX_PAYLOAD) {
            throw new SperliException(ErrorCode.H1618, "message of " + data.remaining() + " bytes, maximum "
                    + Limits.MAX_PAYLOAD + "; split it");
        }
        // Wrapped, not copied: the request completes once TLS has consumed the caller's buffer.
        return frames.send(dest, FrameType.DATA, tag, 0, data.duplicate());
    }

    private RecvRequest post(int source, int tag) {
        checkPeer("source", source);
        checkTag(tag);
        RecvRequest request = new RecvRequest(mailbox, source, tag);
        mailbox.post(request);
        return request;
    }

    private void checkPeer(String what, int rank) {
        if (rank < 0 || rank >= frames.size() || rank == frames.rank()) {
            throw new SperliException(ErrorCode.H1618, what + "=" + rank + ", allowed 0.." + (frames.size() - 1)
                    + " except this rank (" + frames.rank() + ")");
        }
    }

    private static void checkTag(long tag) {
        if (tag < 0 || tag > Limits.MAX_USER_TAG) {
            throw new SperliException(ErrorCode.H1618, "tag=" + tag + ", allowed 0..2147483647");
        }
    }
}
