package org.sperli.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The arithmetic of {@link LatencyBench}: what it reads from {@code taskset} and the figures it prints. */
class LatencyBenchTest {
    @Test
    void anAffinityListOfRangesAndSingleCoresNamesEveryCore() {
        assertArrayEquals(new int[] {0, 1, 2, 3, 6}, LatencyBench.Pinning.parseList("0-3,6"));
        assertArrayEquals(new int[] {1}, LatencyBench.Pinning.parseList("1"));
    }

    @Test
    void percentilesAreOfHalfTheRoundTripInMicroseconds() {
        long[] roundTrips = new long[1000];
        for (int i = 0; i < roundTrips.length; i++) {
            roundTrips[i] = (i + 1) * 2_000L;
        }
        double[] p = LatencyBench.percentiles(roundTrips);
        assertEquals(500, p[0], 1e-9);
        assertEquals(900, p[1], 1e-9);
        assertEquals(990, p[2], 1e-9);
        assertEquals(999, p[3], 1e-9);
        assertEquals(500.5, p[4], 1e-9);
    }
}
