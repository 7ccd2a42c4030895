package com.example;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.sperli.testkit.JobResult;
import org.sperli.testkit.SperliTestKit;

/** The README's ten-line test ("Testing a job"), as printed there: it must pass as a job author would write it. */
class PiTest {
    @Test
    void fourRanksComputePi() {
        JobResult result = SperliTestKit.job(Pi.class).ranks(4).run().assertCompleted();
        assertTrue(result.stdout(0).get(0).startsWith("pi = 3.14159"));
    }
}
