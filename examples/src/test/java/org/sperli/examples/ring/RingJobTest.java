package org.sperli.examples.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.sperli.testkit.JobResult;
import org.sperli.testkit.SperliTestKit;

class RingJobTest {
    @Test
    void theSumComesBackToRankZero() {
        JobResult result = SperliTestKit.job(RingJob.class).ranks(4).args("3").run().assertCompleted();
        assertEquals(List.of("ring of 4 ranks, 3 lap(s): sum 18 (expected 18)"), result.stdout(0));
        assertEquals(List.of(), result.stdout(1));
    }

    @Test
    void aRingOfOneRankSendsNothing() {
        JobResult result = SperliTestKit.job(RingJob.class).ranks(1).run().assertCompleted();
        assertEquals(List.of("ring of 1 rank: sum 0 (expected 0)"), result.stdout(0));
    }
}
