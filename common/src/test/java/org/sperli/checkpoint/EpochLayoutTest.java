package org.sperli.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.sperli.jobspec.JobSpecSamples;

class EpochLayoutTest {
    private static final String JOB_HEX = "0102030405060708090a0b0c0d0e0f10";
    private static final EpochLayout LAYOUT = EpochLayout.of(Path.of("/ckpt"), JobSpecSamples.JOB);

    @Test
    void namesEveryFileOfAnEpoch() {
        Path epoch = Path.of("/ckpt", JOB_HEX, "12");
        assertEquals(Path.of("/ckpt", JOB_HEX), LAYOUT.jobDir());
        assertEquals(epoch, LAYOUT.epochDir(12));
        assertEquals(epoch.resolve("rank-3.ckpt"), LAYOUT.rankFile(12, 3));
        assertEquals(epoch.resolve("rank-3.ckpt.tmp"), LAYOUT.rankFileTmp(12, 3));
        assertEquals(epoch.resolve("rank-2.ckpt.buddy"), LAYOUT.buddyFile(12, 2));
        assertEquals(epoch.resolve("rank-2.ckpt.buddy.tmp"), LAYOUT.buddyFileTmp(12, 2));
        assertEquals(epoch.resolve("COMMIT"), LAYOUT.commit(12));
        assertEquals(epoch.resolve("COMMIT.tmp"), LAYOUT.commitTmp(12));
        // ranks sharing a directory never write the same temporary COMMIT name
        assertEquals(epoch.resolve("COMMIT.tmp"), LAYOUT.commitTmp(12, 0));
        assertEquals(epoch.resolve("COMMIT.3.tmp"), LAYOUT.commitTmp(12, 3));
        assertEquals(Path.of("/ckpt", JOB_HEX, "4294967295"), LAYOUT.epochDir(0xffff_ffffL));
    }

    /**
     * Protocol 9.1 (13.11, question 1): the temporary names are rank-&lt;n&gt;.ckpt.tmp, rank-&lt;r&gt;.ckpt.buddy.tmp,
     * COMMIT.tmp (rank 0) and COMMIT.&lt;n&gt;.tmp (rank n above 0), and ranks that share a checkpoint directory never
     * write under the same one.
     */
    @Test
    void theTemporaryNamesAreTheFourOfTheProtocolAndNoTwoRanksShareOne() {
        int size = 5;
        java.util.Map<Path, Integer> writer = new java.util.HashMap<>();
        for (int rank = 0; rank < size; rank++) {
            for (Path tmp : java.util.List.of(LAYOUT.rankFileTmp(7, rank),
                    LAYOUT.buddyFileTmp(7, EpochLayout.buddySourceOf(rank, size)), LAYOUT.commitTmp(7, rank))) {
                assertEquals(LAYOUT.epochDir(7), tmp.getParent());
                String name = tmp.getFileName().toString();
                assertTrue(name.matches("rank-[0-9]+\\.ckpt\\.tmp|rank-[0-9]+\\.ckpt\\.buddy\\.tmp|COMMIT\\.tmp"
                        + "|COMMIT\\.[1-9][0-9]*\\.tmp"), name);
                Integer other = writer.put(tmp, rank);
                assertEquals(null, other, name + " is written by ranks " + other + " and " + rank);
            }
        }
        assertEquals(3 * size, writer.size());
    }

    @Test
    void refusesEpochsAndRanksThatAreNotPathsOfTheLayout() {
        assertThrows(IllegalArgumentException.class, () -> LAYOUT.epochDir(0));
        assertThrows(IllegalArgumentException.class, () -> LAYOUT.epochDir(-1));
        assertThrows(IllegalArgumentException.class, () -> LAYOUT.epochDir(1L << 32));
        assertThrows(IllegalArgumentException.class, () -> LAYOUT.rankFile(1, -1));
        assertThrows(IllegalArgumentException.class, () -> LAYOUT.rankFile(1, 4096));
    }

    @Test
    void buddyIsTheNextRankAndHoldsTheCopyOfThePrevious() {
        assertEquals(1, EpochLayout.buddyOf(0, 4));
        assertEquals(0, EpochLayout.buddyOf(3, 4));
        assertEquals(3, EpochLayout.buddySourceOf(0, 4));
        assertEquals(1, EpochLayout.buddySourceOf(2, 4));
        assertEquals(0, EpochLayout.buddyOf(0, 1));
        assertThrows(IllegalArgumentException.class, () -> EpochLayout.buddyOf(4, 4));
    }

    @Test
    void parsesOnlyEpochNamesTheLayoutMakes() {
        assertEquals(1, EpochLayout.parseEpoch("1"));
        assertEquals(4294967295L, EpochLayout.parseEpoch("4294967295"));
        for (String name : new String[] {"", "0", "01", "-1", "+1", "1a", "4294967296", "99999999999", "COMMIT",
            "1.tmp", " 1"}) {
            assertEquals(-1, EpochLayout.parseEpoch(name), name);
        }
    }
}
