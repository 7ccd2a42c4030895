package org.sperli.examples.pi;

import static org.junit.jupiter.api.Assertions.assertEquals;
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

    @Test
    void aBadArgumentFailsTheProgram() {
        JobResult result = SperliTestKit.job(PiJob.class).ranks(2).args("0").quiet().run();
        assertEquals(3, result.rank(0).exitStatus(), result.report());
        assertTrue(result.rank(0).thrown() instanceof IllegalArgumentException);
    }
}
