package org.sperli.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sperli run -n N}, mpirun's habit, on real local ranks. */
class RankCountTest {
    @TempDir
    Path dir;

    @AfterEach
    void cleanUp() {
        LauncherHarness.killDescendants();
    }

    @Test
    void nWithoutAHostOptionRunsNLocalRanks() throws IOException {
        Path jar = LauncherHarness.testJar(dir);

        LauncherHarness.Run run = LauncherHarness.run(LauncherHarness.environment(Map.of()),
                "run", "-n", "3", jar.toString(), "ring");

        assertEquals(0, run.exitCode(), run.err());
        for (int rank = 0; rank < 3; rank++) {
            assertTrue(run.out().contains("[rank " + rank + "] rank=" + rank + " size=3 incarnation=1"), run.out());
        }
        assertTrue(run.out().contains("[rank 0] sum=3 incarnation=1"), run.out());
        LauncherHarness.assertNoProcessLeft();
    }

    @Test
    void nFillsTheFirstHostsSlotsBeforeTheNextOnDistinctPorts() throws IOException {
        Path jar = LauncherHarness.testJar(dir);
        int base = LauncherHarness.freePortRange(3);

        LauncherHarness.Run run = LauncherHarness.run(LauncherHarness.environment(Map.of()),
                "run", "-v", "-np", "3", "--port-base", Integer.toString(base),
                "--hosts", "localhost/2,127.0.0.1/2", jar.toString(), "ring");

        assertEquals(0, run.exitCode(), run.err());
        // localhost and 127.0.0.1 are one machine: one port space, so rank 2 gets the third port.
        assertTrue(run.err().contains("rank 0: localhost:" + base + " (local process)"), run.err());
        assertTrue(run.err().contains("rank 1: localhost:" + (base + 1) + " (local process)"), run.err());
        assertTrue(run.err().contains("rank 2: 127.0.0.1:" + (base + 2) + " (local process)"), run.err());
        assertTrue(run.out().contains("[rank 0] sum=3 incarnation=1"), run.out());
        LauncherHarness.assertNoProcessLeft();
    }
}
