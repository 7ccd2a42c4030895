package org.sperli.runtime;

import static org.sperli.protocol.payload.CollectiveHeader.DISSEMINATION;
import static org.sperli.protocol.payload.CollectiveHeader.FROM_ROOT;
import static org.sperli.protocol.payload.CollectiveHeader.PIECE_FROM_HOLDER;
import static org.sperli.protocol.payload.CollectiveHeader.PIECE_FROM_ROOT;

import java.nio.ByteBuffer;
import org.sperli.protocol.Limits;
import org.sperli.runtime.CollectivePort.Incoming;

/**
 * The collectives of a job whose ranks all announced feature bit 1 (protocol section 7.4.1), after the checks and
 * the sequence number of {@link CollectiveEngine}, which calls here for a job of two ranks or more. Reduce and
 * allreduce are {@link MeshReduce}'s; bcast and barrier move bytes only, so any schedule gives the same result;
 * gather and scatter keep the star's frames (the engine's), because their root moves (size-1)*B bytes in any
 * schedule and a tree would only add copies at the inner ranks.
 */
final class MeshCollectives {
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    private final CollectivePort port;
    private final MeshReduce reduce;

    MeshCollectives(CollectivePort port) {
        this.port = port;
        this.reduce = new MeshReduce(port);
    }

    /** Dissemination: in round k this rank tells rank + 2^k and hears from rank - 2^k, all in phase 5. */
    void barrier(CollectiveCall call) {
        port.begin();
        int rank = port.rank();
        int size = port.size();
        // The distances 2^k below size differ mod size, so no peer sends to this rank twice in one barrier.
        for (int d = 1; d < size; d <<= 1) {
            port.send((rank + d) % size, call.header(DISSEMINATION), EMPTY);
            int from = (rank - d + size) % size;
            try (Incoming in = port.receive(from, call, DISSEMINATION)) {
                if (in.data().hasRemaining()) {
                    throw port.mismatch(call, from, "barrier data length=" + in.data().remaining() + ", expected 0");
                }
            }
        }
        port.awaitSends();
    }

    /** {@link MeshReduce#reduce}. */
    byte[] reduce(CollectiveCall call, byte[] data) {
        return reduce.reduce(call, data);
    }

    /** {@link MeshReduce#allreduce}. */
    byte[] allreduce(CollectiveCall call, byte[] data) {
        return reduce.allreduce(call, data);
    }

    /**
     * Bcast: under {@link MeshSchedule#PIECES_AT} bytes the root sends its data to every rank (phase 1, as the
     * star); from it, piece i to the i-th rank other than the root (phase 6), and each such rank passes its piece on
     * to the others (phase 7): the root sends B once instead of (size-1) times. A non-root learns the root's choice
     * from the phase of the root's frame.
     */
    byte[] bcast(CollectiveCall call, byte[] dataAtRoot) {
        port.begin();
        int root = (int) call.root();
        if (port.rank() == root) {
            sendFromRoot(call, dataAtRoot);
            port.awaitSends();
            return dataAtRoot;
        }
        Incoming first = port.receiveEither(root, call, FROM_ROOT, PIECE_FROM_ROOT);
        if (first.phase() == FROM_ROOT) {
            try (first) {
                return first.toArray();
            }
        }
        return assemble(call, first);
    }

    private void sendFromRoot(CollectiveCall call, byte[] data) {
        int root = (int) call.root();
        int size = port.size();
        if (!MeshSchedule.pieces(size, data.length)) {
            for (int r = 0; r < size; r++) {
                if (r != root) {
                    port.send(r, call.header(FROM_ROOT), ByteBuffer.wrap(data));
                }
            }
            return;
        }
        for (int i = 0; i < size - 1; i++) {
            int start = MeshSchedule.pieceStart(i, data.length, size - 1);
            int end = MeshSchedule.pieceStart(i + 1, data.length, size - 1);
            port.send(holder(i, root), call.header(PIECE_FROM_ROOT), ByteBuffer.wrap(data, start, end - start));
        }
    }

    /**
     * A non-root's side of the pieces: its own passed on, every other holder's taken in ascending rank order and
     * held until all are there, because only their sum says the data's length and so where each piece belongs.
     * Pieces whose lengths do not split that sum as the root does, or a sum over the limit, do not answer the call:
     * H1617, checked before the data's array is made.
     */
    private byte[] assemble(CollectiveCall call, Incoming own) {
        int root = (int) call.root();
        int holders = port.size() - 1;
        int mine = port.rank() < root ? port.rank() : port.rank() - 1;
        Incoming[] pieces = new Incoming[holders];
        pieces[mine] = own;
        try {
            for (int i = 0; i < holders; i++) {
                if (i != mine) {
                    port.send(holder(i, root), call.header(PIECE_FROM_HOLDER), own.data().duplicate());
                }
            }
            long total = 0;
            for (int i = 0; i < holders; i++) {
                if (i != mine) {
                    pieces[i] = port.receive(holder(i, root), call, PIECE_FROM_HOLDER);
                }
                total += pieces[i].data().remaining();
            }
            checkPieces(call, pieces, total);
            byte[] out = new byte[(int) total];
            for (int i = 0; i < holders; i++) {
                pieces[i].data().duplicate().get(out, MeshSchedule.pieceStart(i, total, holders),
                        pieces[i].data().remaining());
            }
            // Our piece is sent from the frame's own buffer: it stays open until the sends are done.
            port.awaitSends();
            return out;
        } finally {
            for (Incoming piece : pieces) {
                if (piece != null) {
                    piece.close();
                }
            }
        }
    }

    private void checkPieces(CollectiveCall call, Incoming[] pieces, long total) {
        int root = (int) call.root();
        if (total > Limits.MAX_COLLECTIVE_DATA) {
            throw port.mismatch(call, root, "pieces of " + total + " bytes, maximum " + Limits.MAX_COLLECTIVE_DATA);
        }
        for (int i = 0; i < pieces.length; i++) {
            long expected = MeshSchedule.pieceStart(i + 1, total, pieces.length)
                    - MeshSchedule.pieceStart(i, total, pieces.length);
            if (pieces[i].data().remaining() != expected) {
                int from = holder(i, root);
                throw port.mismatch(call, from == port.rank() ? root : from, "piece " + i + " length="
                        + pieces[i].data().remaining() + ", expected " + expected + " of " + total + " bytes");
            }
        }
    }

    /** The rank that holds piece {@code i}: the i-th rank other than the root, in ascending order. */
    private static int holder(int i, int root) {
        return i < root ? i : i + 1;
    }
}
