package org.sperli.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sperli run -x}: local ranks get the variables set on top of the environment they inherit. */
class RankEnvironmentTest {
    @TempDir
    Path dir;

    @AfterEach
    void cleanUp() {
        LauncherHarness.killDescendants();
    }

    @Test
    void xSetsAValueOrCopiesTheLaunchersInEveryLocalRank() throws IOException {
        Path jar = LauncherHarness.testJar(dir);
        List<Integer> ports = LauncherHarness.freePorts(2);

        LauncherHarness.Run run = LauncherHarness.run(LauncherHarness.environment(Map.of(
                "SPERLI_X_COPIED", "from the launcher")), "run", "-x", "SPERLI_X_SET=two words",
                "-x", "SPERLI_X_COPIED", "--hosts", LauncherHarness.hosts(ports, "localhost"), jar.toString(),
                "env", "SPERLI_X_SET", "SPERLI_X_COPIED");

        assertEquals(0, run.exitCode(), run.err());
        for (int rank = 0; rank < 2; rank++) {
            assertTrue(run.out().contains("[rank " + rank + "] env SPERLI_X_SET=two words\n"), run.out());
            assertTrue(run.out().contains("[rank " + rank + "] env SPERLI_X_COPIED=from the launcher\n"), run.out());
        }
        LauncherHarness.assertNoProcessLeft();
    }
}
