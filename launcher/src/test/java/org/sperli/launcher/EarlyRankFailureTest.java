package org.sperli.launcher;

import org.sperli.launcher.exit.ExitCodes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rank that fails before it is connected (its port is taken) is not given the 2 s the others get to end by
 * themselves: they have no connection to it and would only wait for their setup bound, so they are stopped at once.
 */
class EarlyRankFailureTest {
    @TempDir
    Path dir;

    @AfterEach
    void cleanUp() {
        LauncherHarness.killDescendants();
    }

    @Test
    void aRankThatFailsBeforeItIsConnectedEndsTheOthersWithoutTheSettleWait() throws IOException {
        Path jar = LauncherHarness.testJar(dir);
        List<Integer> ports = LauncherHarness.freePorts(3);
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress("0.0.0.0", ports.get(1)));

            LauncherHarness.Run run = LauncherHarness.run(LauncherHarness.environment(Map.of()), "run", "-v",
                    "--hosts", LauncherHarness.hosts(ports, "localhost"), jar.toString());

            assertEquals(ExitCodes.JOB_FAILED, run.exitCode(), run.err());
            assertTrue(run.err().contains("rank 1 (local pid "), run.err());
            assertTrue(run.errLines().contains("[rank 1] H1613 peer lost or unreachable: port " + ports.get(1)
                    + " is held by another process on this host, so this rank cannot listen there; start the job with"
                    + " another --port-base, or give the rank another port in the host list"), run.err());
            double rank1 = exited(run, 1);
            double others = Math.max(exited(run, 0), exited(run, 2));
            assertTrue(others - rank1 < 1.5, "the others ended " + (others - rank1) + " s after rank 1; "
                    + run.err());
        }
        LauncherHarness.assertNoProcessLeft();
    }

    /** The "exited" column of {@code rank}'s row in the -v phase breakdown. */
    private static double exited(LauncherHarness.Run run, int rank) {
        for (String line : run.errLines()) {
            String[] cells = line.replace("sperli:", "").trim().split("\\s+");
            if (cells.length == 9 && cells[0].equals(String.valueOf(rank))) {
                return Double.parseDouble(cells[8]);
            }
        }
        throw new AssertionError("no phase row of rank " + rank + " in: " + run.err());
    }
}
