package org.sperli.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sperli.runtime.CollectiveFixture.LIMIT;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sperli.ElementType;
import org.sperli.ReduceOp;
import org.sperli.protocol.payload.CollectiveHeader;

/**
 * The mesh over real TLS: ranks that all announce feature bit 1 run it and give the star's bytes for every
 * collective; one rank that does not announce it makes the whole job run the star; a mesh frame in a star job does
 * not answer the call (H1617); a rank lost during a mesh allreduce ends the job as in the star (H1613 or H1612),
 * nothing hangs.
 */
class MeshJobTest {
    private static final int BIG = MeshSchedule.SEGMENTS_AT * 3 + 8 * 5;

    @Test
    void everyCollectiveOfAMeshJobGivesTheStarJobsBytes() {
        List<byte[]> star = everyCollective(new TestJob(4).collectives(CollectiveShape.STAR), "STAR");
        List<byte[]> mesh = everyCollective(new TestJob(4), "MESH");
        for (int r = 0; r < 4; r++) {
            assertArrayEquals(star.get(r), mesh.get(r), "rank " + r);
        }
    }

    @Test
    void aJobInWhichOneRankDoesNotAnnounceTheBitRunsTheStar() {
        List<byte[]> out = everyCollective(new TestJob(3).collectivesAt(1, CollectiveShape.STAR), "STAR");
        List<byte[]> all = everyCollective(new TestJob(3), "MESH");
        for (int r = 0; r < 3; r++) {
            assertArrayEquals(all.get(r), out.get(r), "rank " + r);
        }
    }

    /** A star job's rank 0 waits for phase 0 of the barrier; a phase 2 frame of the mesh does not answer it. */
    @Test
    void aMeshPhaseInAStarJobIsH1617WithAbortReason3() {
        List<String> out = new TestJob(2).collectives(CollectiveShape.STAR).endings(LIMIT, rt -> {
            if (rt.rank() == 1) {
                CollectiveFixture.forge(rt, 0, new CollectiveHeader(CollectiveHeader.BARRIER, 0, 0,
                        CollectiveHeader.TO_OWNER, 0, 1), new byte[0]);
            }
            return CollectiveFixture.codes(rt, rt::barrier);
        });
        assertTrue(out.get(0).startsWith("H1617"), out.get(0));
        assertTrue(out.get(0).contains("phase=2, expected 0"), out.get(0));
        assertTrue(out.get(1).matches("(ok \\| .*)?H1612.*") || out.get(1).contains("reason 3"), out.get(1));
    }

    /** Rank 2 goes away without BYE while the others are in a segmented allreduce that needs its segments. */
    @Test
    void aRankLostDuringAMeshAllreduceEndsTheJobH1613OrH1612() {
        List<String> out = new TestJob(3).endings(LIMIT, rt -> {
            CollectiveEngine engine = TestJob.parts(rt).collectives();
            engine.barrier();
            if (rt.rank() == 2) {
                TestJob.parts(rt).connectionsOrNull().close();
                return "gone";
            }
            return CollectiveFixture.codes(rt, () -> engine.allreduce(new byte[BIG], ElementType.F64, ReduceOp.SUM));
        });
        for (int r = 0; r < 2; r++) {
            assertTrue(out.get(r).matches("H161[23].*"), out.get(r));
        }
    }

    /**
     * Barrier, bcast (small and in pieces), reduce and allreduce (small and segmented, floats with NaNs, -0.0,
     * infinities and subnormals), gather and scatter: each rank's results, one after the other.
     */
    private static List<byte[]> everyCollective(TestJob job, String shape) {
        int size = job.size;
        List<TestJob.Outcome<byte[]>> outcomes = job.run(LIMIT, rt -> {
            CollectiveEngine engine = TestJob.parts(rt).collectives();
            int rank = rt.rank();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            engine.barrier();
            List<byte[]> small = MeshBitIdentityTest.contributions(size, 8 * 100, ElementType.F64, 3);
            List<byte[]> big = MeshBitIdentityTest.contributions(size, BIG, ElementType.F32, 4);
            out.writeBytes(engine.allreduce(small.get(rank), ElementType.F64, ReduceOp.SUM));
            out.writeBytes(engine.allreduce(big.get(rank), ElementType.F32, ReduceOp.PROD));
            byte[] reduced = engine.reduce(size - 1, big.get(rank), ElementType.F32, ReduceOp.SUM);
            out.writeBytes(reduced == null ? new byte[0] : reduced);
            byte[] bigBcast = CollectiveFixture.bytes(5, 1, BIG + 3);
            out.writeBytes(engine.bcast(1, rank == 1 ? bigBcast : null));
            out.writeBytes(engine.bcast(0, rank == 0 ? new byte[] {1, 2, 3} : null));
            List<byte[]> gathered = engine.gather(size - 1, CollectiveFixture.bytes(6, rank, 40));
            if (gathered != null) {
                gathered.forEach(out::writeBytes);
            }
            List<byte[]> blocks = new ArrayList<>();
            for (int r = 0; r < size; r++) {
                blocks.add(CollectiveFixture.bytes(7, r, 10 * r));
            }
            out.writeBytes(engine.scatter(0, rank == 0 ? blocks : null));
            engine.barrier();
            assertEquals(shape, engine.shape().name());
            return out.toByteArray();
        });
        List<byte[]> results = new ArrayList<>();
        for (TestJob.Outcome<byte[]> o : outcomes) {
            results.add(o.get());
        }
        assertArrayEquals(CollectiveFixture.fold(MeshBitIdentityTest.contributions(size, 800, ElementType.F64, 3),
                ElementType.F64, ReduceOp.SUM), java.util.Arrays.copyOf(results.get(0), 800));
        return results;
    }
}
