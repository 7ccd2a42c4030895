package org.sperli.launcher.job;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The silence limit the launcher picks when the operator gave none. */
class SilenceLimitTest {
    @Test
    void upToFourLocalRanksPerCoreKeepTheDefaultWithoutANote() {
        SilenceLimit limit = SilenceLimit.of(null, 8, 8, 2);
        assertEquals(5000, limit.ms());
        assertEquals(Optional.empty(), limit.note());
    }

    @Test
    void moreLocalRanksPerCoreGetFiveSecondsMorePerFourRanksPerCoreAndANote() {
        assertEquals(10_000, SilenceLimit.of(null, 9, 9, 2).ms());
        SilenceLimit limit = SilenceLimit.of(null, 64, 64, 2);
        assertEquals(40_000, limit.ms());
        assertEquals("silence limit 40000 ms, not 5000: 64 local ranks on 2 cores can wait seconds for the CPU;"
                + " heartbeats after 8.0 s idle (--silence-ms sets it)", limit.note().orElseThrow());
    }

    @Test
    void largerJobsGetFiveSecondsMorePer1024RanksSoThatHeartbeatsDoNotGrowWithTheJob() {
        assertEquals(5000, SilenceLimit.of(null, 1024, 4, 4).ms());
        assertEquals(10_000, SilenceLimit.of(null, 1025, 4, 4).ms());
        SilenceLimit limit = SilenceLimit.of(null, 4096, 16, 16);
        assertEquals(20_000, limit.ms());
        assertEquals("silence limit 20000 ms, not 5000: each of 4096 ranks has 4095 connections to keep alive;"
                + " heartbeats after 4.0 s idle (--silence-ms sets it)", limit.note().orElseThrow());
    }

    @Test
    void theAutomaticLimitStopsAtSixtySeconds() {
        assertEquals(60_000, SilenceLimit.of(null, 4096, 4096, 1).ms());
    }

    @Test
    void theOperatorsLimitIsKeptAsGivenWithoutANote() {
        SilenceLimit limit = SilenceLimit.of(3000L, 4096, 64, 2);
        assertEquals(3000, limit.ms());
        assertEquals(Optional.empty(), limit.note());
    }
}
