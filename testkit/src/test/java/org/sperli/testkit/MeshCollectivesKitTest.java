package org.sperli.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;
import org.sperli.ErrorCode;

/**
 * The kit's {@code collectives} setting, as {@code sperli run --collectives}: a job gives the same bits over the star
 * and over the mesh; a rank killed during a mesh allreduce ends the job with H1613 at the others, as in v1.
 */
class MeshCollectivesKitTest {
    @Test
    void starAndMeshJobsPrintTheSameBits() {
        // 16384 doubles: 128 KiB, so the allreduce takes the segments and the bcast the pieces.
        JobResult star = SperliTestKit.job(KitJobs.MeshJob.class).ranks(3).args("2", "16384").collectives("star")
                .quiet().run().assertCompleted();
        JobResult mesh = SperliTestKit.job(KitJobs.MeshJob.class).ranks(3).args("2", "16384").quiet().run()
                .assertCompleted();
        for (int r = 0; r < 3; r++) {
            assertEquals(star.rank(r).stdout(), mesh.rank(r).stdout());
        }
    }

    @Test
    void aRankKilledInAMeshAllreduceEndsTheJobWithH1613AtTheOthers() {
        JobResult result = SperliTestKit.job(KitJobs.MeshJob.class).ranks(3).args("4", "16384").killAtCall(2, 2)
                .quiet().run();
        assertFalse(result.completed());
        for (int r : new int[] {0, 1}) {
            assertEquals(ErrorCode.H1613, result.rank(r).code(), result.report());
        }
    }
}
