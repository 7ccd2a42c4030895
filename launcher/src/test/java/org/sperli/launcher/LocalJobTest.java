package org.sperli.launcher;

import org.sperli.launcher.command.LaunchEnvironment;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A 4-rank job of real rank processes (the default rank command: this JVM's java running org.sperli.rankd.Main)
 * through {@code sperli run}, end to end, over localhost and 127.0.0.1.
 */
class LocalJobTest {
    @TempDir
    Path dir;

    private String savedTmp;
    private Path rankTmp;

    @BeforeEach
    void rankTemporaryDirectory() throws IOException {
        // Local ranks inherit the launcher's java.io.tmpdir: point it at a directory of this test to see it left empty.
        rankTmp = Files.createDirectory(dir.resolve("rank-tmp"));
        savedTmp = System.getProperty("java.io.tmpdir");
        System.setProperty("java.io.tmpdir", rankTmp.toString());
    }

    @AfterEach
    void restore() {
        System.setProperty("java.io.tmpdir", savedTmp);
        LauncherHarness.killDescendants();
    }

    @Test
    void fourLocalRanksCompleteWithPrefixedOutputAndASummary() throws IOException {
        Path jar = LauncherHarness.testJar(dir);
        List<Integer> ports = LauncherHarness.freePorts(4);

        LauncherHarness.Run run = LauncherHarness.run(LauncherHarness.environment(Map.of()),
                "run", "--hosts", LauncherHarness.hosts(ports, "localhost", "127.0.0.1"), jar.toString(), "ring");

        assertEquals(0, run.exitCode(), run.err());
        for (int rank = 0; rank < 4; rank++) {
            assertTrue(run.out().contains("[rank " + rank + "] rank=" + rank + " size=4 incarnation=1 pid="),
                    run.out());
        }
        assertTrue(run.out().contains("[rank 0] sum=6 incarnation=1"), run.out());
        String summary = run.errLines().get(run.errLines().size() - 1);
        assertTrue(summary.matches("sperli: job [0-9a-f]{32}: completed; ranks 4, incarnations used 1 .*"
                + "exit status 0"), summary);
        LauncherHarness.assertNoProcessLeft();
        try (Stream<Path> left = Files.list(rankTmp)) {
            assertEquals(List.of(), left.toList(), "ranks left files in their temporary directory");
        }
    }

    /**
     * On a terminal the launch shows one progress line, counted from the ranks' phase lines, which is replaced by a
     * note once every rank runs; the phase lines themselves are not shown.
     */
    @Test
    void onATerminalTheProgressLineCountsRanksUntilAllRun() throws IOException {
        Path jar = LauncherHarness.testJar(dir);
        List<Integer> ports = LauncherHarness.freePorts(3);
        LaunchEnvironment terminal = new LaunchEnvironment(
                Map.of("SPERLI_RANKD_JAVA_OPTS", LauncherHarness.RANK_JAVA_OPTS), true);

        LauncherHarness.Run run = LauncherHarness.run(terminal,
                "run", "--hosts", LauncherHarness.hosts(ports, "localhost"), jar.toString(), "ring");

        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.err().contains("\r\u001b[Ksperli: incarnation 1: ranks started 3/3, connected "), run.err());
        assertTrue(run.err().contains("\r\u001b[Ksperli: incarnation 1: all 3 ranks running after "), run.err());
        assertTrue(!run.err().contains("sperli-rank:") && !run.out().contains("sperli-rank:"), run.err());
        LauncherHarness.assertNoProcessLeft();
    }

    @Test
    void noPrefixPrintsRankLinesAsWritten() throws IOException {
        Path jar = LauncherHarness.testJar(dir);
        List<Integer> ports = LauncherHarness.freePorts(2);

        LauncherHarness.Run run = LauncherHarness.run(LauncherHarness.environment(Map.of()),
                "run", "--no-prefix", "--hosts", LauncherHarness.hosts(ports, "localhost"), jar.toString());

        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("\nsum=1 incarnation=1") || run.out().startsWith("sum=1"), run.out());
        assertTrue(!run.out().contains("[rank "), run.out());
        LauncherHarness.assertNoProcessLeft();
    }
}
