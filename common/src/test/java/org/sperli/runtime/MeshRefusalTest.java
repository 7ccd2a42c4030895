package org.sperli.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sperli.protocol.payload.CollectiveHeader.DISSEMINATION;
import static org.sperli.protocol.payload.CollectiveHeader.FROM_OWNER;
import static org.sperli.protocol.payload.CollectiveHeader.FROM_PARENT;
import static org.sperli.protocol.payload.CollectiveHeader.FROM_ROOT;
import static org.sperli.protocol.payload.CollectiveHeader.PIECE_FROM_HOLDER;
import static org.sperli.protocol.payload.CollectiveHeader.PIECE_FROM_ROOT;
import static org.sperli.protocol.payload.CollectiveHeader.TOWARD_ROOT;
import static org.sperli.protocol.payload.CollectiveHeader.TO_OWNER;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.sperli.ElementType;
import org.sperli.ReduceOp;
import org.sperli.SperliException;
import org.sperli.protocol.payload.CollectiveHeader;

/**
 * Every refusal of a mesh frame, with its code: a frame that does not answer the call (another phase, operation,
 * sequence) or arrives from a rank the schedule does not expect is H1617 with ABORT reason 3; a contribution's
 * segment of another length than the owner's is H1618 with ABORT reason 3, as the star's contribution; cut results,
 * pieces and barrier data are H1617. One rank's schedule runs over {@link MemoryPorts}; its peers are forged frames.
 */
class MeshRefusalTest {
    private static final int BIG = MeshSchedule.SEGMENTS_AT;
    private static final CollectiveCall ALLREDUCE = new CollectiveCall(CollectiveHeader.ALLREDUCE,
            ElementType.F64.code(), ReduceOp.SUM.code(), 0, 1);
    private static final CollectiveCall BARRIER = new CollectiveCall(CollectiveHeader.BARRIER, 0, 0, 0, 1);
    private static final CollectiveCall BCAST = new CollectiveCall(CollectiveHeader.BCAST, 0, 0, 0, 1);

    @Test
    void aSegmentInAnotherPhaseIsH1617WithAbortReason3() {
        MemoryPorts ports = new MemoryPorts(3);
        ports.forge(0, 1, ALLREDUCE.header(FROM_OWNER), new byte[segment(1, 3)]);
        assertRefused(ports, "1:3/H1617", "phase=3, expected 2",
                () -> new MeshReduce(ports.port(1)).allreduce(ALLREDUCE, new byte[BIG]));
    }

    /** A rank that took the small schedule (its data under the threshold) sends phase 0 where the owner wants 2. */
    @Test
    void aContributionOfTheOtherScheduleIsH1617() {
        MemoryPorts ports = new MemoryPorts(3);
        ports.forge(0, 1, ALLREDUCE.header(TOWARD_ROOT), new byte[8]);
        assertRefused(ports, "1:3/H1617", "phase=0, expected 2",
                () -> new MeshReduce(ports.port(1)).allreduce(ALLREDUCE, new byte[BIG]));
    }

    @Test
    void aSegmentOfAnotherCallIsH1617() {
        MemoryPorts ports = new MemoryPorts(3);
        CollectiveHeader later = new CollectiveHeader(CollectiveHeader.ALLREDUCE, ElementType.F64.code(),
                ReduceOp.SUM.code(), TO_OWNER, 0, 2);
        ports.forge(0, 1, later, new byte[segment(1, 3)]);
        assertRefused(ports, "1:3/H1617", "sequence=2, expected 1",
                () -> new MeshReduce(ports.port(1)).allreduce(ALLREDUCE, new byte[BIG]));
    }

    @Test
    void aSegmentOfAnotherLengthIsH1618WithAbortReason3() {
        MemoryPorts ports = new MemoryPorts(3);
        ports.forge(0, 1, ALLREDUCE.header(TO_OWNER), new byte[segment(1, 3) - 8]);
        assertRefused(ports, "1:3/H1618", "contribution of rank 0 has length=",
                () -> new MeshReduce(ports.port(1)).allreduce(ALLREDUCE, new byte[BIG]));
    }

    @Test
    void aFoldedSegmentOfAnotherLengthIsH1617() {
        MemoryPorts ports = new MemoryPorts(3);
        ports.forge(0, 1, ALLREDUCE.header(TO_OWNER), new byte[segment(1, 3)]);
        ports.forge(2, 1, ALLREDUCE.header(TO_OWNER), new byte[segment(1, 3)]);
        ports.forge(0, 1, ALLREDUCE.header(FROM_OWNER), new byte[segment(0, 3) + 8]);
        assertRefused(ports, "1:3/H1617", "folded segment length=",
                () -> new MeshReduce(ports.port(1)).allreduce(ALLREDUCE, new byte[BIG]));
    }

    /** Rank 1's parent in the tree from rank 0 is rank 0; a result from rank 0 cut short does not answer. */
    @Test
    void aTreeResultOfAnotherLengthIsH1617() {
        MemoryPorts ports = new MemoryPorts(3);
        ports.forge(0, 1, ALLREDUCE.header(FROM_PARENT), new byte[16]);
        assertRefused(ports, "1:3/H1617", "result length=16, contribution 24",
                () -> new MeshReduce(ports.port(1)).allreduce(ALLREDUCE, new byte[24]));
    }

    /**
     * Rank 0 of 4 hears from rank 3 and then rank 2 in a barrier; a frame from rank 1 waits until a call reads rank
     * 1, which it does not answer: H1617.
     */
    @Test
    void aFrameFromARankTheScheduleDoesNotExpectIsH1617WhenItIsRead() {
        MemoryPorts ports = new MemoryPorts(4);
        ports.forge(3, 0, BARRIER.header(DISSEMINATION), new byte[0]);
        ports.forge(2, 0, BARRIER.header(DISSEMINATION), new byte[0]);
        ports.forge(1, 0, BARRIER.header(DISSEMINATION), new byte[0]);
        MeshCollectives mesh = new MeshCollectives(ports.port(0));
        mesh.barrier(BARRIER);
        assertEquals(1, ports.pending(1, 0));
        CollectiveCall next = new CollectiveCall(CollectiveHeader.ALLREDUCE, ElementType.F64.code(),
                ReduceOp.SUM.code(), 0, 2);
        assertRefused(ports, "0:3/H1617", "operation=1, expected 4", () -> mesh.allreduce(next, new byte[8]));
    }

    @Test
    void barrierDataIsH1617() {
        MemoryPorts ports = new MemoryPorts(2);
        ports.forge(1, 0, BARRIER.header(DISSEMINATION), new byte[1]);
        assertRefused(ports, "0:3/H1617", "barrier data length=1, expected 0",
                () -> new MeshCollectives(ports.port(0)).barrier(BARRIER));
    }

    @Test
    void aBcastFrameFromTheRootInAPhaseOfTheHoldersIsH1617() {
        MemoryPorts ports = new MemoryPorts(3);
        ports.forge(0, 1, BCAST.header(PIECE_FROM_HOLDER), new byte[8]);
        assertRefused(ports, "1:3/H1617", "phase=7, expected 1",
                () -> new MeshCollectives(ports.port(1)).bcast(BCAST, null));
    }

    /** 100 bytes over holders 1 and 2 are pieces of 50: a piece of 40 with one of 60 does not split as the root's. */
    @Test
    void piecesThatDoNotSplitTheirSumAsTheRootDoesAreH1617() {
        MemoryPorts ports = new MemoryPorts(3);
        ports.forge(0, 1, BCAST.header(PIECE_FROM_ROOT), new byte[40]);
        ports.forge(2, 1, BCAST.header(PIECE_FROM_HOLDER), new byte[60]);
        assertRefused(ports, "1:3/H1617", "piece 0 length=40, expected 50 of 100 bytes",
                () -> new MeshCollectives(ports.port(1)).bcast(BCAST, null));
    }

    @Test
    void piecesThatAddUpToMoreThanTheLimitAreH1617BeforeTheArrayIsMade() {
        MemoryPorts ports = new MemoryPorts(3);
        ports.forge(0, 1, BCAST.header(PIECE_FROM_ROOT), new byte[9 << 20]);
        ports.forge(2, 1, BCAST.header(PIECE_FROM_HOLDER), new byte[9 << 20]);
        assertRefused(ports, "1:3/H1617", "maximum 16777200",
                () -> new MeshCollectives(ports.port(1)).bcast(BCAST, null));
    }

    /** The pieces the root sends and the holders pass on give every rank the root's bytes, at 2 to 9 ranks. */
    @Test
    void bcastByPiecesGivesEveryRankTheRootsBytes() {
        for (int size = 2; size <= 9; size++) {
            for (int bytes : new int[] {0, 100, MeshSchedule.PIECES_AT, MeshSchedule.PIECES_AT + size * 7 + 1}) {
                int root = bytes % size;
                byte[] data = CollectiveFixture.bytes(size, root, bytes);
                CollectiveCall call = new CollectiveCall(CollectiveHeader.BCAST, 0, 0, root, 1);
                MemoryPorts ports = new MemoryPorts(size);
                List<byte[]> out = ports.run(port -> new MeshCollectives(port).bcast(call,
                        port.rank() == root ? data : null));
                for (byte[] got : out) {
                    assertArrayEquals(data, got);
                }
                assertEquals(List.of(), ports.aborts);
            }
        }
    }

    @Test
    void disseminationBarrierEndsOnEveryRankAndLeavesNoFrame() {
        for (int size = 2; size <= 17; size++) {
            MemoryPorts ports = new MemoryPorts(size);
            ports.run(port -> {
                new MeshCollectives(port).barrier(BARRIER);
                return null;
            });
            for (int from = 0; from < size; from++) {
                for (int to = 0; to < size; to++) {
                    assertEquals(0, ports.pending(from, to));
                }
            }
        }
    }

    /** A small bcast is the star's: phase 1 from the root to every rank. */
    @Test
    void aSmallBcastIsTheStarsPhase1() {
        MemoryPorts ports = new MemoryPorts(3);
        ports.forge(0, 2, BCAST.header(FROM_ROOT), new byte[] {5});
        assertArrayEquals(new byte[] {5}, new MeshCollectives(ports.port(2)).bcast(BCAST, null));
    }

    private static int segment(int k, int size) {
        int width = ElementType.F64.width();
        return MeshSchedule.segmentStart(k + 1, BIG, width, size) - MeshSchedule.segmentStart(k, BIG, width, size);
    }

    private static void assertRefused(MemoryPorts ports, String abort, String fault, Executable call) {
        SperliException e = assertThrows(SperliException.class, call);
        assertEquals(abort.substring(abort.indexOf('/') + 1), e.code().name());
        assertTrue(e.getMessage().contains(fault), e.getMessage());
        assertEquals(List.of(abort), ports.aborts);
    }
}
