package org.sperli.runtime;

import static org.sperli.protocol.payload.CollectiveHeader.FROM_OWNER;
import static org.sperli.protocol.payload.CollectiveHeader.FROM_PARENT;
import static org.sperli.protocol.payload.CollectiveHeader.TOWARD_ROOT;
import static org.sperli.protocol.payload.CollectiveHeader.TO_OWNER;

import java.nio.ByteBuffer;
import org.sperli.ElementType;
import org.sperli.ErrorCode;
import org.sperli.ReduceOp;
import org.sperli.collective.Combine;
import org.sperli.protocol.payload.Abort;
import org.sperli.runtime.CollectivePort.Incoming;

/**
 * Reduce and allreduce over the mesh (protocol section 7.4.1) with exactly the star's bytes. The star's root folds
 * ((c0 op c1) op c2) ... in ascending rank order; here every element's contributions meet at one owner too, which
 * folds them in that order, so only where the fold runs changes, never its grouping. No partial results are combined
 * (no tree or ring reduce): those regroup the fold and change float results.
 *
 * <p>Below {@link MeshSchedule#SEGMENTS_AT} the owner is the root (rank 0 for allreduce), which gets every
 * contribution in phase 0 as in the star; allreduce then sends the result down a binomial tree (phase 4) instead of
 * from rank 0 to everyone. From it, segment k of every contribution goes to rank k (phase 2), and the folded segments
 * go in phase 3 to the root (reduce) or to every rank (allreduce): every rank moves 2B(N-1)/N bytes.
 */
final class MeshReduce {
    private final CollectivePort port;

    MeshReduce(CollectivePort port) {
        this.port = port;
    }

    /** The checked reduce: the result at the root, null elsewhere. */
    byte[] reduce(CollectiveCall call, byte[] data) {
        port.begin();
        int root = (int) call.root();
        if (!MeshSchedule.segmented(port.size(), data.length)) {
            if (port.rank() != root) {
                port.send(root, call.header(TOWARD_ROOT), ByteBuffer.wrap(data));
                port.awaitSends();
                return null;
            }
            byte[] out = new byte[data.length];
            foldInto(call, ByteBuffer.wrap(out), 0, data.length, data, TOWARD_ROOT);
            return out;
        }
        sendSegments(call, data);
        int own = port.rank();
        int start = start(call, own, data.length);
        int end = start(call, own + 1, data.length);
        if (own != root) {
            // Only the root assembles a result: the others keep their own segment alone.
            ByteBuffer folded = ByteBuffer.allocate(end - start);
            foldInto(call, folded, start, end, data, TO_OWNER);
            port.send(root, call.header(FROM_OWNER), folded);
            port.awaitSends();
            return null;
        }
        byte[] out = new byte[data.length];
        foldInto(call, ByteBuffer.wrap(out, start, end - start).slice(), start, end, data, TO_OWNER);
        collectSegments(call, out);
        port.awaitSends();
        return out;
    }

    /** The checked allreduce: the same result at every rank. */
    byte[] allreduce(CollectiveCall call, byte[] data) {
        port.begin();
        if (!MeshSchedule.segmented(port.size(), data.length)) {
            byte[] out = null;
            if (port.rank() != 0) {
                port.send(0, call.header(TOWARD_ROOT), ByteBuffer.wrap(data));
            } else {
                out = new byte[data.length];
                foldInto(call, ByteBuffer.wrap(out), 0, data.length, data, TOWARD_ROOT);
            }
            out = treeDown(call, out, data.length);
            port.awaitSends();
            return out;
        }
        sendSegments(call, data);
        byte[] out = new byte[data.length];
        int start = start(call, port.rank(), data.length);
        int end = start(call, port.rank() + 1, data.length);
        ByteBuffer own = ByteBuffer.wrap(out, start, end - start).slice();
        foldInto(call, own, start, end, data, TO_OWNER);
        for (int k = 0; k < port.size(); k++) {
            if (k != port.rank()) {
                port.send(k, call.header(FROM_OWNER), own);
            }
        }
        collectSegments(call, out);
        port.awaitSends();
        return out;
    }

    /** Phase 2: segment k of {@code data} to every other rank k, k ascending, sent from the caller's array. */
    private void sendSegments(CollectiveCall call, byte[] data) {
        for (int k = 0; k < port.size(); k++) {
            if (k != port.rank()) {
                int start = start(call, k, data.length);
                port.send(k, call.header(TO_OWNER), ByteBuffer.wrap(data, start, start(call, k + 1, data.length)
                        - start));
            }
        }
    }

    /**
     * The owner's fold of the bytes {@code start..end} of the data (its segment, or the whole data when not
     * segmented) into {@code acc}: contributions taken in ascending rank order, its own in its rank's place; the
     * first is copied into {@code acc}, each next one folded into it as the right operand. A contribution of another
     * length than the owner's ends the job as in the star: ABORT reason 3 with code 1618.
     */
    private void foldInto(CollectiveCall call, ByteBuffer acc, int start, int end, byte[] own, int phase) {
        ElementType type = ElementType.ofCode(call.elementType());
        ReduceOp op = ReduceOp.ofCode(call.reduceOp());
        for (int r = 0; r < port.size(); r++) {
            if (r == port.rank()) {
                fold(acc, ByteBuffer.wrap(own, start, end - start).slice(), r, type, op);
                continue;
            }
            try (Incoming in = port.receive(r, call, phase)) {
                if (in.data().remaining() != end - start) {
                    throw port.endJob(Abort.Reason.COLLECTIVE_MISMATCH, ErrorCode.H1618, call, "contribution of rank "
                            + r + " has length=" + in.data().remaining() + (phase == TOWARD_ROOT ? ", root's "
                            : " in segment " + port.rank() + ", owner's ") + (end - start));
                }
                fold(acc, in.data(), r, type, op);
                in.recycleOnClose();
            }
        }
    }

    private static void fold(ByteBuffer acc, ByteBuffer contribution, int rank, ElementType type, ReduceOp op) {
        if (rank == 0) {
            acc.duplicate().put(contribution.duplicate());
        } else {
            Combine.into(acc, contribution, type, op);
        }
    }

    /** Phase 3: every other owner's folded segment into its place in {@code out}, in ascending rank order. */
    private void collectSegments(CollectiveCall call, byte[] out) {
        for (int k = 0; k < port.size(); k++) {
            if (k == port.rank()) {
                continue;
            }
            ByteBuffer place = segment(call, out, k);
            try (Incoming in = port.receive(k, call, FROM_OWNER)) {
                if (in.data().remaining() != place.remaining()) {
                    throw port.mismatch(call, k, "folded segment length=" + in.data().remaining() + ", expected "
                            + place.remaining());
                }
                place.put(in.data().duplicate());
                in.recycleOnClose();
            }
        }
    }

    /** Segment {@code k} of the result, whose bounds are those of the data (of the same length). */
    private ByteBuffer segment(CollectiveCall call, byte[] out, int k) {
        int start = start(call, k, out.length);
        return ByteBuffer.wrap(out, start, start(call, k + 1, out.length) - start).slice();
    }

    /** The first byte of segment {@code k} of {@code bytes} of the call's elements. */
    private int start(CollectiveCall call, int k, int bytes) {
        return MeshSchedule.segmentStart(k, bytes, ElementType.ofCode(call.elementType()).width(), port.size());
    }

    /**
     * Phase 4: the result from the binomial tree's parent (rooted at rank 0, which holds {@code outAtZero}), then to
     * this rank's children, the largest subtree first. A result of another length than this rank's contribution
     * does not answer the call (H1617), as in the star.
     */
    private byte[] treeDown(CollectiveCall call, byte[] outAtZero, int length) {
        int rank = port.rank();
        int size = port.size();
        byte[] out = outAtZero;
        int parent = MeshSchedule.parent(rank, 0, size);
        if (parent >= 0) {
            try (Incoming in = port.receive(parent, call, FROM_PARENT)) {
                if (in.data().remaining() != length) {
                    throw port.mismatch(call, parent, "result length=" + in.data().remaining() + ", contribution "
                            + length);
                }
                out = in.toArray();
            }
        }
        for (int m = MeshSchedule.childMask(rank, 0, size) >> 1; m > 0; m >>= 1) {
            if (rank + m < size) {
                port.send(rank + m, call.header(FROM_PARENT), ByteBuffer.wrap(out));
            }
        }
        return out;
    }
}
