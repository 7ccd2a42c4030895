package org.sperli.examples.checkpointed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sperli.testkit.JobResult;
import org.sperli.testkit.RankResult;
import org.sperli.testkit.SperliTestKit;

class CheckpointedJobTest {
    @Test
    void aRankKilledInTheMiddleCostsARestartAndNotABitOfTheResult(@TempDir Path dir) throws Exception {
        JobResult whole = SperliTestKit.job(CheckpointedJob.class).ranks(4).args("60", "10", "2")
                .checkpointDir(Files.createDirectory(dir.resolve("whole"))).quiet().run().assertCompleted();
        String result = last(whole.stdout(0));

        // Rank 2 dies as it enters the checkpoint of epoch 3 (step 30); the launcher's restart resumes epoch 2. The
        // trace is the picture of docs/sperli-trace.md (docs/trace-checkpointed.sh draws it).
        Path trace = Path.of("target", "trace-checkpointed.json");
        JobResult killed = SperliTestKit.job(CheckpointedJob.class).ranks(4).args("60", "10", "2")
                .checkpointDir(Files.createDirectory(dir.resolve("killed"))).killAtCheckpoint(2, 3).restartMax(1)
                .trace(trace).run().assertCompleted();
        assertTrue(Files.size(trace) > 0);
        assertEquals(2, killed.incarnations().size());
        assertEquals(RankResult.Ending.KILLED, killed.incarnations().get(0).rank(2).ending());
        assertTrue(killed.stdout(3).get(0).endsWith("incarnation 2, pid " + ProcessHandle.current().pid()
                + ", resumed from epoch 2 at step 20"), killed.stdout(3).get(0));
        assertEquals(result, last(killed.stdout(0)));
        assertTrue(result.startsWith("result 0x") && result.endsWith("after 60 steps on 4 ranks"), result);
    }

    /**
     * Each rank refuses its checkpoint by itself; a rank that hears the other's ABORT first (with the last data of the
     * step before) ends with H1612 instead, so the test asks for the refusal as the job's cause and of some rank.
     */
    @Test
    void withoutACheckpointDirectoryTheCheckpointIsRefused() {
        JobResult result = SperliTestKit.job(CheckpointedJob.class).ranks(2).args("20", "10").quiet().run();
        assertTrue(result.outcome().contains("H1618"), result.report());
        boolean refused = false;
        for (int rank = 0; rank < 2; rank++) {
            String line = String.valueOf(result.rank(rank).lastLine());
            assertTrue(line.startsWith("H1618") || line.startsWith("H1612"), result.report());
            refused |= line.startsWith("H1618");
        }
        assertTrue(refused, result.report());
    }

    private static String last(List<String> lines) {
        return lines.get(lines.size() - 1);
    }
}
