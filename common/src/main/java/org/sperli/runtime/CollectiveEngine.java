package org.sperli.runtime;

import static org.sperli.protocol.payload.CollectiveHeader.FROM_ROOT;
import static org.sperli.protocol.payload.CollectiveHeader.TOWARD_ROOT;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.sperli.ElementType;
import org.sperli.ErrorCode;
import org.sperli.ReduceOp;
import org.sperli.SperliException;
import org.sperli.ContributionFold;
import org.sperli.collective.Combine;
import org.sperli.protocol.Limits;
import org.sperli.protocol.payload.Abort;
import org.sperli.protocol.payload.CollectiveHeader;
import org.sperli.runtime.CollectiveWire.Outgoing;
import org.sperli.runtime.CollectiveWire.Received;

/**
 * The six collectives of one rank: over a star around the root (the COLLECTIVE section of the protocol, tables
 * sections 4 and 10), or, in a job whose ranks all announced feature bit 1 in their HELLO, over the mesh
 * ({@link MeshCollectives}, protocol section 7.4.1) behind the same calls, checks and sequence numbers. The shape is
 * decided at the first call of two or more ranks, when every peer's HELLO is known, and kept for the incarnation.
 * Reduce and allreduce with a program's {@link ContributionFold} always take the star: the fold sees whole values.
 *
 * <p>The star: Rank r sends only to the root and hears only from it; the root talks to every rank, and waits
 * for contributions in ascending rank order so that the fold ((c0 op c1) op c2) ... never depends on timing.
 *
 * <p>Every call takes the next sequence number first, so a refused call still counts. Then come the checks a rank
 * can make alone (H1618, nothing sent, the job goes on); with one rank the call ends there and returns its data as
 * given. Phases: barrier 0 then 1 with empty data; bcast 1; reduce 0; allreduce 0 then 1; gather 0; scatter 1.
 * Checks only one rank can make (the root's bcast data and scatter blocks) end the job through {@link CollectiveWire}.
 *
 * <p>Calls are serialised on this object: the collectives of a rank happen one at a time, in program order.
 */
final class CollectiveEngine {
    private static final byte[] EMPTY = new byte[0];

    private final FrameLink frames;
    private final CollectiveWire wire;
    private final BooleanSupplier meshAgreed;
    /** The mesh schedules once decided for; null while undecided or for the star. */
    private MeshCollectives mesh;
    private CollectiveShape shape;
    /** Collective calls made so far by this rank; the current call's sequence number. */
    private long calls;

    /** {@code meshAgreed}: whether this rank and every peer announced feature bit 1; asked once, after the setup. */
    CollectiveEngine(FrameLink frames, BooleanSupplier meshAgreed) {
        this.frames = frames;
        this.wire = new CollectiveWire(frames);
        this.meshAgreed = meshAgreed;
    }

    /** The shape of this incarnation's collectives: decided at the first call with peers, STAR before. */
    synchronized CollectiveShape shape() {
        return mesh() == null ? CollectiveShape.STAR : CollectiveShape.MESH;
    }

    /** The mesh's schedules when the job uses them, else null (the star). */
    private MeshCollectives mesh() {
        if (shape == null && frames.size() > 1) {
            shape = meshAgreed.getAsBoolean() ? CollectiveShape.MESH : CollectiveShape.STAR;
            mesh = shape == CollectiveShape.MESH ? new MeshCollectives(new WirePort(frames, wire)) : null;
        }
        return mesh;
    }

    /** Collective calls made so far: the last one's sequence number. */
    synchronized long calls() {
        return calls;
    }

    /** Barrier at rank 0: every other rank sends phase 0, then rank 0 answers everyone with phase 1. */
    synchronized void barrier() {
        CollectiveCall call = next(CollectiveHeader.BARRIER, 0, 0, 0);
        if (frames.size() == 1) {
            return;
        }
        if (mesh() != null) {
            mesh.barrier(call);
            return;
        }
        List<SendRequest> sends = new ArrayList<>();
        if (frames.rank() == 0) {
            for (int r = 1; r < frames.size(); r++) {
                receiveEmpty(r, call, TOWARD_ROOT);
            }
            sendToOthers(CollectiveWire.payload(call.header(FROM_ROOT), EMPTY), sends);
        } else {
            sends.add(wire.send(0, CollectiveWire.payload(call.header(TOWARD_ROOT), EMPTY)));
            receiveEmpty(0, call, FROM_ROOT);
        }
        CollectiveWire.awaitAll(sends);
    }

    synchronized byte[] bcast(int root, byte[] dataAtRoot) {
        CollectiveCall call = next(CollectiveHeader.BCAST, 0, 0, root);
        checkRoot(root);
        boolean atRoot = root == frames.rank();
        if (atRoot) {
            checkRootData(call, dataAtRoot);
        }
        if (frames.size() == 1) {
            return dataAtRoot;
        }
        if (mesh() != null) {
            return mesh.bcast(call, atRoot ? dataAtRoot : null);
        }
        if (atRoot) {
            List<SendRequest> sends = new ArrayList<>();
            sendToOthers(CollectiveWire.payload(call.header(FROM_ROOT), dataAtRoot), sends);
            CollectiveWire.awaitAll(sends);
            return dataAtRoot;
        }
        try (Received in = wire.receive(root, call, FROM_ROOT)) {
            return in.toArray();
        }
    }

    synchronized byte[] reduce(int root, byte[] data, ElementType type, ReduceOp op) {
        return reduce(root, data, CollectiveChecks.code(type), CollectiveChecks.code(op));
    }

    /** {@link #reduce(int, byte[], ElementType, ReduceOp)} with wire codes, so that every code can be refused. */
    synchronized byte[] reduce(int root, byte[] data, int typeCode, int opCode) {
        CollectiveCall call = next(CollectiveHeader.REDUCE, typeCode, opCode, root);
        checkRoot(root);
        CollectiveChecks.reduce(call, data);
        return reduce(call, data, null);
    }

    /**
     * Reduce whose root folds the contributions with {@code fold} instead of {@link Combine}, for values with a shape.
     * The frames are those of {@link #reduce(int, byte[], ElementType, ReduceOp)}, with the type and operation as
     * given; the local checks are the same except that the data need not be whole elements (an encoding may carry a
     * header).
     */
    synchronized byte[] reduce(int root, byte[] data, ElementType type, ReduceOp op, ContributionFold fold) {
        CollectiveCall call = next(CollectiveHeader.REDUCE, CollectiveChecks.code(type), CollectiveChecks.code(op),
                root);
        checkRoot(root);
        checkFold(call, data, fold);
        return reduce(call, data, fold);
    }

    /** The checked reduce: the root folds with {@code foldOrNull}, or with Combine when it is null. */
    private byte[] reduce(CollectiveCall call, byte[] data, ContributionFold foldOrNull) {
        int root = (int) call.root();
        if (frames.size() == 1) {
            return data;
        }
        if (foldOrNull == null && mesh() != null) {
            return mesh.reduce(call, data);
        }
        if (root != frames.rank()) {
            CollectiveWire.awaitAll(List.of(wire.send(root, CollectiveWire.payload(call.header(TOWARD_ROOT), data))));
            return null;
        }
        return foldOrNull == null ? fold(call, data) : fold(call, data, foldOrNull);
    }

    synchronized byte[] allreduce(byte[] data, ElementType type, ReduceOp op) {
        return allreduce(data, CollectiveChecks.code(type), CollectiveChecks.code(op));
    }

    /** Reduce at rank 0 (phase 0), then rank 0 sends the result to every rank (phase 1). */
    synchronized byte[] allreduce(byte[] data, int typeCode, int opCode) {
        CollectiveCall call = next(CollectiveHeader.ALLREDUCE, typeCode, opCode, 0);
        CollectiveChecks.reduce(call, data);
        return allreduce(call, data, null);
    }

    /** Allreduce whose rank 0 folds with {@code fold}; see the fold form of reduce. */
    synchronized byte[] allreduce(byte[] data, ElementType type, ReduceOp op, ContributionFold fold) {
        CollectiveCall call = next(CollectiveHeader.ALLREDUCE, CollectiveChecks.code(type), CollectiveChecks.code(op),
                0);
        checkFold(call, data, fold);
        return allreduce(call, data, fold);
    }

    /** The checked allreduce: rank 0 folds with {@code foldOrNull}, or with Combine when it is null. */
    private byte[] allreduce(CollectiveCall call, byte[] data, ContributionFold foldOrNull) {
        if (frames.size() == 1) {
            return data;
        }
        if (foldOrNull == null && mesh() != null) {
            return mesh.allreduce(call, data);
        }
        List<SendRequest> sends = new ArrayList<>();
        if (frames.rank() == 0) {
            byte[] result = foldOrNull == null ? fold(call, data) : fold(call, data, foldOrNull);
            sendToOthers(CollectiveWire.payload(call.header(FROM_ROOT), result), sends);
            CollectiveWire.awaitAll(sends);
            return result;
        }
        sends.add(wire.send(0, CollectiveWire.payload(call.header(TOWARD_ROOT), data)));
        byte[] result;
        try (Received in = wire.receive(0, call, FROM_ROOT)) {
            if (in.data().remaining() != data.length) {
                throw wire.mismatch(call, 0, "result length=" + in.data().remaining() + ", contribution "
                        + data.length);
            }
            result = in.toArray();
        }
        CollectiveWire.awaitAll(sends);
        return result;
    }

    synchronized List<byte[]> gather(int root, byte[] data) {
        CollectiveCall call = next(CollectiveHeader.GATHER, 0, 0, root);
        checkRoot(root);
        CollectiveChecks.data(data);
        if (frames.size() == 1) {
            return Collections.singletonList(data);
        }
        if (root != frames.rank()) {
            CollectiveWire.awaitAll(List.of(wire.send(root, CollectiveWire.payload(call.header(TOWARD_ROOT), data))));
            return null;
        }
        byte[][] blocks = new byte[frames.size()][];
        blocks[root] = data;
        for (int r = 0; r < blocks.length; r++) {
            if (r == root) {
                continue;
            }
            try (Received in = wire.receive(r, call, TOWARD_ROOT)) {
                // Lengths are compared with the root's own block (tables section 10).
                if (in.data().remaining() != data.length) {
                    throw wire.mismatch(call, r, "block length=" + in.data().remaining() + ", root's block "
                            + data.length);
                }
                blocks[r] = in.toArray();
            }
        }
        return Collections.unmodifiableList(Arrays.asList(blocks));
    }

    synchronized byte[] scatter(int root, List<byte[]> blocksAtRoot) {
        CollectiveCall call = next(CollectiveHeader.SCATTER, 0, 0, root);
        checkRoot(root);
        if (root != frames.rank()) {
            try (Received in = wire.receive(root, call, FROM_ROOT)) {
                return in.toArray();
            }
        }
        checkBlocks(call, blocksAtRoot);
        if (frames.size() == 1) {
            return blocksAtRoot.get(0);
        }
        List<SendRequest> sends = new ArrayList<>();
        for (int r = 0; r < frames.size(); r++) {
            if (r != root) {
                sends.add(wire.send(r, CollectiveWire.payload(call.header(FROM_ROOT), blocksAtRoot.get(r))));
            }
        }
        CollectiveWire.awaitAll(sends);
        return blocksAtRoot.get(root);
    }

    // the root's work

    /**
     * The root's fold of reduce and allreduce: contributions taken in ascending rank order, its own in its rank's
     * place, each folded into the accumulator as the right operand. A contribution of another length than the
     * root's ends the job: ABORT reason 3 with code 1618, because the lengths are the data of a call.
     *
     * <p>The accumulator is the first received contribution's own array (a copy only for data under 64 KiB), never a
     * copy of the root's data, which is the caller's. At root 0 that makes the first step c1 op c0 instead of
     * c0 op c1: the same bits, as every operation of the table is commutative (IEEE addition, multiplication, min and
     * max included, NaN results being canonical); only the grouping ((c0 op c1) op c2) ... is fixed, and it is kept.
     */
    private byte[] fold(CollectiveCall call, byte[] own) {
        ElementType type = ElementType.ofCode(call.elementType());
        ReduceOp op = ReduceOp.ofCode(call.reduceOp());
        int root = (int) call.root();
        byte[] acc = null;
        for (int r = 0; r < frames.size(); r++) {
            if (r == root) {
                if (acc != null) {
                    combine(acc, ByteBuffer.wrap(own), type, op);
                }
                continue;
            }
            try (Received in = wire.receive(r, call, TOWARD_ROOT)) {
                if (in.data().remaining() != own.length) {
                    throw wire.endJob(Abort.Reason.COLLECTIVE_MISMATCH, ErrorCode.H1618, call, "contribution of rank "
                            + r + " has length=" + in.data().remaining() + ", root's " + own.length);
                }
                if (acc == null) {
                    acc = in.toArray();
                    if (root < r) {
                        combine(acc, ByteBuffer.wrap(own), type, op);
                    }
                } else {
                    combine(acc, in.data(), type, op);
                    // Read and folded: its array serves the next contribution of this length.
                    in.recycleOnClose();
                }
            }
        }
        return acc;
    }

    /**
     * The root's fold with a {@link ContributionFold}: every contribution handed to it in ascending rank order, its
     * own in its rank's place. The fold judges the contributions (their lengths included, since an encoding with a
     * shape says what it needs); anything it throws ends the job like contributions of different length: ABORT
     * reason 3 with code 1618.
     */
    private byte[] fold(CollectiveCall call, byte[] own, ContributionFold fold) {
        int root = (int) call.root();
        for (int r = 0; r < frames.size(); r++) {
            if (r == root) {
                add(call, fold, r, ByteBuffer.wrap(own).asReadOnlyBuffer());
                continue;
            }
            try (Received in = wire.receive(r, call, TOWARD_ROOT)) {
                add(call, fold, r, in.data().asReadOnlyBuffer());
            }
        }
        byte[] result;
        try {
            result = fold.result();
        } catch (RuntimeException e) {
            throw refusedByFold(call, "result", e);
        }
        if (result == null || result.length > Limits.MAX_COLLECTIVE_DATA) {
            throw wire.endJob(Abort.Reason.COLLECTIVE_MISMATCH, ErrorCode.H1618, call, "fold result length="
                    + (result == null ? "null" : result.length) + ", maximum " + Limits.MAX_COLLECTIVE_DATA);
        }
        return result;
    }

    private void add(CollectiveCall call, ContributionFold fold, int rank, ByteBuffer contribution) {
        try {
            fold.add(rank, contribution.duplicate());
        } catch (RuntimeException e) {
            throw refusedByFold(call, "contribution of rank " + rank, e);
        }
    }

    private SperliException refusedByFold(CollectiveCall call, String what, RuntimeException e) {
        String reason = e instanceof SperliException s ? s.reason() : e.toString();
        return wire.endJob(Abort.Reason.COLLECTIVE_MISMATCH, ErrorCode.H1618, call, what + " refused: " + reason);
    }

    private static byte[] combine(byte[] acc, ByteBuffer b, ElementType type, ReduceOp op) {
        Combine.into(ByteBuffer.wrap(acc), b, type, op);
        return acc;
    }

    private void sendToOthers(Outgoing payload, List<SendRequest> sends) {
        for (int r = 0; r < frames.size(); r++) {
            if (r != frames.rank()) {
                sends.add(wire.send(r, payload));
            }
        }
    }

    /** A barrier frame carries no data; one with data does not answer the call (H1617). */
    private void receiveEmpty(int peer, CollectiveCall call, int phase) {
        try (Received in = wire.receive(peer, call, phase)) {
            if (in.data().hasRemaining()) {
                throw wire.mismatch(call, peer, "barrier data length=" + in.data().remaining() + ", expected 0");
            }
        }
    }

    // checks

    private CollectiveCall next(int operation, int typeCode, int opCode, int root) {
        calls++;
        return new CollectiveCall(operation, typeCode, opCode, root, calls);
    }

    private void checkRoot(int root) {
        CollectiveChecks.root(root, frames.size());
    }

    /**
     * The local checks of a fold reduce, in the order of {@link CollectiveChecks#reduce}: data and fold present,
     * operation, type and the pair allowed, data at most the limit. Not whole elements: an encoding with a shape may
     * carry a header.
     */
    private static void checkFold(CollectiveCall call, byte[] data, ContributionFold fold) {
        if (data == null || fold == null) {
            throw new SperliException(ErrorCode.H1618, data == null ? "data=null" : "fold=null");
        }
        // Length 0: the operation, the type and the pair, without the whole-elements rule.
        Combine.check(call.elementType(), call.reduceOp(), 0);
        if (data.length > Limits.MAX_COLLECTIVE_DATA) {
            throw new SperliException(ErrorCode.H1618, "data length=" + data.length + ", maximum "
                    + Limits.MAX_COLLECTIVE_DATA);
        }
    }

    /**
     * The bcast data only the root holds: present and at most the limit. Anything else ends the job as the scatter
     * blocks do (ABORT reason 4, code 1618, the root throws H1618): refused at the root alone, the others would wait
     * for the data for ever, their heartbeats keeping the job alive.
     */
    private void checkRootData(CollectiveCall call, byte[] data) {
        String fault = CollectiveChecks.dataFault(data);
        if (fault != null) {
            throw wire.endJob(Abort.Reason.ROOT_DATA_REFUSED, ErrorCode.H1618, call, fault + " at the root");
        }
    }

    /**
     * The scatter blocks only the root holds: one per rank, none null or over the limit. Anything else ends the
     * job: ABORT reason 4, code 1618, and the root throws H1618.
     */
    private void checkBlocks(CollectiveCall call, List<byte[]> blocks) {
        String fault = CollectiveChecks.blocksFault(blocks, frames.size());
        if (fault != null) {
            throw wire.endJob(Abort.Reason.ROOT_DATA_REFUSED, ErrorCode.H1618, call, fault);
        }
    }
}
