package org.sperli.examples.pi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.sperli.testkit.JobResult;
import org.sperli.testkit.SperliTestKit;

class PiJobTest {
    @Test
    void fourRanksAgreeOnPiToTheLastDigitEveryRun() {
        JobResult first = SperliTestKit.job(PiJob.class).ranks(4).args("1000000").run().assertCompleted();
        String line = first.stdout(0).get(0);
        assertTrue(line.startsWith("pi ~ 3.14159265358") && line.contains("1000000 intervals on 4 ranks"), line);
        JobResult again = SperliTestKit.job(PiJob.class).ranks(4).args("1000000").quiet().run().assertCompleted();
        assertEquals(line, again.stdout(0).get(0), "the reduction runs in rank order: the same bits every run");
    }

    /**
     * Every rank refuses the argument, and the first to throw aborts the others: a rank whose peer's ABORT arrives
     * before its own program starts ends as aborted by a peer (4), whichever rank that is.
     */
    @Test
    void aBadArgumentFailsTheProgram() {
        JobResult result = SperliTestKit.job(PiJob.class).ranks(2).args("0").quiet().run();
        assertFalse(result.completed(), result.report());
        assertTrue(result.outcome().contains("status 3 (the program failed)")
                && result.outcome().contains("IllegalArgumentException: intervals=0"), result.report());
        int failed = 0;
        for (int rank = 0; rank < 2; rank++) {
            int status = result.rank(rank).exitStatus();
            assertTrue(status == 3 || status == 4, result.report());
            if (status == 3) {
                failed++;
                assertTrue(result.rank(rank).thrown() instanceof IllegalArgumentException, result.report());
            }
        }
        assertTrue(failed >= 1, result.report());
    }
}
