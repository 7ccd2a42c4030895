package org.sperli.examples.hello;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.sperli.testkit.JobResult;
import org.sperli.testkit.SperliTestKit;

class HelloJobTest {
    @Test
    void everyRankSaysHello() {
        JobResult result = SperliTestKit.job(HelloJob.class).ranks(3).run().assertCompleted();
        for (int r = 0; r < 3; r++) {
            assertEquals(List.of("hello from rank " + r + " of 3 (incarnation 1)"), result.stdout(r));
        }
    }
}
