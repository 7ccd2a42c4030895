package org.sperli.runtime;

import io.netty.channel.Channel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.sperli.transport.Frame;

/**
 * The state of one peer: its channel and the frames that arrived but were not yet asked for. DATA, COLLECTIVE and CKPT
 * frames wait in separate queues so that each kind of call takes only its own frames, in arrival order. All fields are
 * guarded by the runtime's lock.
 */
final class PeerLink {
    /**
     * Queued bytes above which this rank stops reading from the peer, so TCP slows the sender down; unless the program
     * waits for a frame from this peer that is not queued yet (see {@link #wanted}).
     */
    static final long PAUSE_ABOVE_BYTES = 64L * 1024 * 1024;
    /** Queued bytes below which reading resumes. */
    static final long RESUME_BELOW_BYTES = 16L * 1024 * 1024;

    final int rank;
    Channel channel;
    boolean helloDone;
    boolean byeReceived;
    boolean closed;
    long queuedBytes;
    /** Threads of this rank blocked until a collective or checkpoint frame from this peer is queued. */
    int waiters;

    final ArrayDeque<Frame> data = new ArrayDeque<>();
    final ArrayDeque<Frame> collective = new ArrayDeque<>();
    final ArrayDeque<Frame> checkpoint = new ArrayDeque<>();
    /** Receives posted before their message arrived, in posting order (MPI's matching order). */
    final List<RecvRequest> posted = new ArrayList<>();

    PeerLink(int rank) {
        this.rank = rank;
    }

    /** The first queued DATA frame with this tag, removed; or null. */
    Frame takeData(long tag) {
        for (Iterator<Frame> it = data.iterator(); it.hasNext(); ) {
            Frame f = it.next();
            if (f.header().tag() == tag) {
                it.remove();
                return f;
            }
        }
        return null;
    }

    /**
     * Whether the program waits for something from this peer that is not queued: a posted receive, or a thread
     * blocked until a collective or checkpoint frame arrives. Such a peer is read even above the pause bound, since
     * the awaited frame can only come after the queued ones and pausing would deadlock a program that takes its
     * messages out of order (MPI's eager buffering does the same).
     */
    boolean wanted() {
        return waiters > 0 || !posted.isEmpty();
    }

    /** The first posted receive waiting for this tag, removed; or null. */
    RecvRequest takePosted(long tag) {
        for (Iterator<RecvRequest> it = posted.iterator(); it.hasNext(); ) {
            RecvRequest r = it.next();
            if (r.tag == tag) {
                it.remove();
                return r;
            }
        }
        return null;
    }

    /** Whether the peer can still send: it has neither said BYE nor closed. */
    boolean present() {
        return !byeReceived && !closed;
    }

    void releaseAll() {
        for (ArrayDeque<Frame> q : List.of(data, collective, checkpoint)) {
            Frame f;
            while ((f = q.poll()) != null) {
                f.release();
            }
        }
        queuedBytes = 0;
    }
}
