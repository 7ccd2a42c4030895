package org.sperli.launcher.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;
import org.sperli.ErrorCode;

/** Protocol section 11: the launcher's words for a failed rank follow the H code of its last line, not a guess. */
class RankStatusTest {
    @Test
    void status7WithACollectiveCodeIsNamedAsTheCollectiveMismatchItIs() {
        assertEquals("exited with status 7 (collective frame does not answer the call)",
                RankStatus.describe(7, "H1617 rank 1, allreduce#3: frame from rank 0: operation=2, expected 4"));
    }

    @Test
    void status7WithACheckpointCodeNamesThatCode() {
        assertEquals("exited with status 7 (no epoch can be resumed)",
                RankStatus.describe(7, "H1622 no epoch can be resumed: rank 1's file is missing"));
    }

    @Test
    void withoutACodeTheStatusGroupIsNamed() {
        assertEquals("exited with status 7 (collective mismatch, or checkpoint or resume failed)",
                RankStatus.describe(7, "Exception in thread main"));
        assertEquals("exited with status 3 (the program failed)", RankStatus.describe(3, ""));
    }

    @Test
    void signalsAndLostRanksKeepTheirOwnWords() {
        assertEquals("was killed by signal 9", RankStatus.describe(137, "H1613 rank 2 silent for 5000 ms"));
        assertEquals(RankStatus.describe(RankProcess.LOST), RankStatus.describe(RankProcess.LOST, "H1613 x"));
    }

    @Test
    void onlyALeadingWholeCodeCounts() {
        assertEquals(ErrorCode.H1613, RankStatus.leadingCode("H1613 rank 3 closed its connection without BYE"));
        assertEquals(ErrorCode.H1616, RankStatus.leadingCode("H1616"));
        assertNull(RankStatus.leadingCode("H16130 not a code"));
        assertNull(RankStatus.leadingCode("rank 3: H1613"));
        assertNull(RankStatus.leadingCode("H1699 unknown"));
        assertNull(RankStatus.leadingCode(null));
    }
}
