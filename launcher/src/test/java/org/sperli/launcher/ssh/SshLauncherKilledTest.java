package org.sperli.launcher.ssh;

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
import org.sperli.launcher.LauncherHarness;
import org.sperli.launcher.Main;

/**
 * Issue 14, point 2, over SSH: a launcher killed with SIGKILL leaves no rank behind on an SSH host either. The test's
 * SSH server is made to behave as OpenSSH's sshd: when the launcher's connection goes, it only ends the commands'
 * standard input, it kills nothing; the ranks must notice by themselves.
 */
@Timeout(120)
class SshLauncherKilledTest {
    private static final long ORPHAN_BOUND_MS = 3000;

    @TempDir
    Path dir;

    private EmbeddedSshServer server;

    @AfterEach
    void cleanUp() throws Exception {
        LauncherHarness.killDescendants();
        if (server != null) {
            server.close();
        }
    }

    @Test
    void sigkillOfTheLauncherLeavesNoSshRankAliveThreeSecondsLater() throws Exception {
        server = EmbeddedSshServer.start(Files.createDirectory(dir.resolve("remote-home")), false);
        Path sshDir = dir.resolve("ssh");
        server.writeClientFiles(sshDir, "id_ecdsa", List.of("localhost"));
        Files.writeString(sshDir.resolve("config"), "Host localhost\n    Port " + server.port()
                + "\n    User sperli-test\n");
        Path jar = LauncherHarness.testJar(dir);
        Path rankTmp = Files.createDirectory(dir.resolve("rank-tmp"));
        String rankd = Path.of(System.getProperty("java.home"), "bin", "java") + " " + LauncherHarness.RANK_JAVA_OPTS
                + " -Djava.io.tmpdir=" + rankTmp + " -cp " + System.getProperty("java.class.path")
                + " org.sperli.rankd.Main";
        List<Integer> ports = LauncherHarness.freePorts(3);
        Path out = dir.resolve("launcher.out");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "run", "--ssh", "--ssh-dir", sshDir.toString(), "--rankd", rankd,
                "--hosts", LauncherHarness.hosts(ports, "localhost"), jar.toString(), "wait"));
        Process launcher = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();

        long deadline = System.nanoTime() + LauncherHarness.RUN_LIMIT.toNanos();
        while (waitingRanks(out) < 3) {
            assertTrue(launcher.isAlive() && System.nanoTime() < deadline, "ranks not waiting:\n" + read(out));
            Thread.sleep(50);
        }
        // The ranks are children of the SSH server, that is of this JVM, not of the launcher.
        List<ProcessHandle> ranks = ProcessHandle.current().descendants()
                .filter(p -> p.info().commandLine().orElse("").contains("org.sperli.rankd.Main")).toList();
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
