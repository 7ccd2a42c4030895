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
            foldInto(call, out, 0, data, TOWARD_ROOT);
            return out;
        }
        byte[] out = foldOwnSegment(call, data);
        int own = port.rank();
        if (own != root) {
            port.send(root, call.header(FROM_OWNER), segment(call, out, own));
            port.awaitSends();
            return null;
        }
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
                foldInto(call, out, 0, data, TOWARD_ROOT);
            }
            out = treeDown(call, out, data.length);
            port.awaitSends();
            return out;
        }
        byte[] out = foldOwnSegment(call, data);
        ByteBuffer own = segment(call, out, port.rank());
        for (int k = 0; k < port.size(); k++) {
            if (k != port.rank()) {
                port.send(k, call.header(FROM_OWNER), own);
            }
        }
        collectSegments(call, out);
        port.awaitSends();
        return out;
    }

    /**
     * Phase 2: segment k of {@code data} to every other rank k, then this rank's own segment folded into the result
     * array, which the other segments fill later.
     */
    private byte[] foldOwnSegment(CollectiveCall call, byte[] data) {
        int width = ElementType.ofCode(call.elementType()).width();
        int size = port.size();
        for (int k = 0; k < size; k++) {
            if (k != port.rank()) {
                int start = MeshSchedule.segmentStart(k, data.length, width, size);
                int end = MeshSchedule.segmentStart(k + 1, data.length, width, size);
                port.send(k, call.header(TO_OWNER), ByteBuffer.wrap(data, start, end - start));
            }
        }
        byte[] out = new byte[data.length];
        foldInto(call, out, port.rank(), data, TO_OWNER);
        return out;
    }

    /**
     * The owner's fold of segment {@code k} (the whole data when not segmented): contributions taken in ascending
     * rank order, its own in its rank's place; the first is copied into {@code out}, each next one folded into it
     * as the right operand. A contribution of another length than the owner's segment ends the job as in the star:
     * ABORT reason 3 with code 1618.
     */
    private void foldInto(CollectiveCall call, byte[] out, int k, byte[] own, int phase) {
        ElementType type = ElementType.ofCode(call.elementType());
        ReduceOp op = ReduceOp.ofCode(call.reduceOp());
        int start = phase == TOWARD_ROOT ? 0 : MeshSchedule.segmentStart(k, own.length, type.width(), port.size());
        int end = phase == TOWARD_ROOT ? own.length
                : MeshSchedule.segmentStart(k + 1, own.length, type.width(), port.size());
        ByteBuffer acc = ByteBuffer.wrap(out, start, end - start).slice();
        for (int r = 0; r < port.size(); r++) {
            if (r == port.rank()) {
                fold(acc, ByteBuffer.wrap(own, start, end - start).slice(), r, type, op);
                continue;
            }
            try (Incoming in = port.receive(r, call, phase)) {
                if (in.data().remaining() != end - start) {
                    throw port.endJob(Abort.Reason.COLLECTIVE_MISMATCH, ErrorCode.H1618, call, "contribution of rank "
                            + r + " has length=" + in.data().remaining() + (phase == TOWARD_ROOT ? ", root's "
                            : " in segment " + k + ", owner's ") + (end - start));
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
        int width = ElementType.ofCode(call.elementType()).width();
        int start = MeshSchedule.segmentStart(k, out.length, width, port.size());
        int end = MeshSchedule.segmentStart(k + 1, out.length, width, port.size());
        return ByteBuffer.wrap(out, start, end - start).slice();
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
                out = new byte[length];
                in.data().duplicate().get(out);
                in.recycleOnClose();
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
