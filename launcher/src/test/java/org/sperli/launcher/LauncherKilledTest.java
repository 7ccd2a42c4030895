package org.sperli.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A launcher killed with SIGKILL runs no clean-up of its own, yet leaves no rank behind: each rank reads the end of
 * the standard input its launcher held open and stops (ABORT reason 8, PEM directory removed) within 3 s.
 */
@Timeout(120)
class LauncherKilledTest {
    private static final long ORPHAN_BOUND_MS = 3000;

    @TempDir
    Path dir;

    @AfterEach
    void cleanUp() {
        LauncherHarness.killDescendants();
    }

    @Test
    void sigkillOfTheLauncherLeavesNoRankAliveThreeSecondsLater() throws Exception {
        Path jar = LauncherHarness.testJar(dir);
        List<Integer> ports = LauncherHarness.freePorts(3);
        Path out = dir.resolve("launcher.out");
        Path rankTmp = Files.createDirectory(dir.resolve("rank-tmp"));
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:TieredStopAtLevel=1",
                "-Djava.io.tmpdir=" + rankTmp, "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "run", "--hosts", LauncherHarness.hosts(ports, "localhost"), jar.toString(), "wait"));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile());
        builder.environment().put("SPERLI_RANKD_JAVA_OPTS", LauncherHarness.RANK_JAVA_OPTS);
        Process launcher = builder.start();

        long deadline = System.nanoTime() + LauncherHarness.RUN_LIMIT.toNanos();
        while (waitingRanks(out) < 3) {
            assertTrue(launcher.isAlive() && System.nanoTime() < deadline, "ranks not waiting:\n" + read(out));
            Thread.sleep(50);
        }
        List<ProcessHandle> ranks = launcher.descendants().filter(ProcessHandle::isAlive).toList();
        assertEquals(3, ranks.size(), "one process per rank:\n" + read(out));

        launcher.destroyForcibly();
        assertTrue(launcher.waitFor(5, TimeUnit.SECONDS));
        long killedAt = System.nanoTime();
        for (ProcessHandle rank : ranks) {
            long left = ORPHAN_BOUND_MS - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt);
            rank.onExit().completeOnTimeout(null, Math.max(0, left), TimeUnit.MILLISECONDS).join();
            assertTrue(!rank.isAlive(), "rank pid " + rank.pid() + " still runs "
                    + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt) + " ms after the launcher's SIGKILL");
        }
        try (var left = Files.list(rankTmp)) {
            assertEquals(List.of(), left.toList(), "no PEM directory may be left behind");
        }
    }

    private static long waitingRanks(Path out) throws Exception {
        return read(out).lines().filter(l -> l.matches("\\[rank \\d+\\] waiting")).count();
    }

    private static String read(Path out) throws Exception {
        return Files.exists(out) ? Files.readString(out, StandardCharsets.UTF_8) : "";
    }
}
