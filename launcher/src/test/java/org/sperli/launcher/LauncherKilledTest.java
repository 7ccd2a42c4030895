package org.sperli.launcher;


import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("SPERLI_RANKD_JAVA_OPTS", LauncherHarness.RANK_JAVA_OPTS);
        KilledLauncher launcher = KilledLauncher.start(builder, out, 3);
        // Three ranks and the host agent that started them; the agent's directory, in the launcher's temporary
        // directory, holds the ranks' own.
        launcher.killAndAssertNothingLeft(() -> launcher.process().descendants().filter(ProcessHandle::isAlive)
                .toList(), 4, rankTmp);
    }
}
