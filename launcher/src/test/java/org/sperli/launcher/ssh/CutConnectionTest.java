package org.sperli.launcher.ssh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sperli.launcher.KilledLauncher;
import org.sperli.launcher.LauncherHarness;

/**
 * The SSH connection to a host cut mid-job (the server drops it, and, as OpenSSH's sshd, leaves the host agent to find
 * its standard input closed): the agent ends its ranks within {@link KilledLauncher#ORPHAN_BOUND_MS}, the launcher logs
 * in again, starts a new agent and restarts the job, which completes.
 */
class CutConnectionTest {
    private static final Pattern FIRST = Pattern.compile("\\[rank (\\d)] rank=\\d size=3 incarnation=1 pid=(\\d+)");

    @TempDir
    Path dir;
    private EmbeddedSshServer server;
    private Path sshDir;

    @BeforeEach
    void startServer() throws Exception {
        server = EmbeddedSshServer.start(Files.createDirectory(dir.resolve("remote-home")), false);
        server.installRankd();
        sshDir = dir.resolve("ssh");
        server.writeClientFiles(sshDir, "id_ecdsa", List.of("localhost"));
        Files.writeString(sshDir.resolve("config"), "Host localhost\n    Port " + server.port()
                + "\n    User sperli-test\n");
    }

    @AfterEach
    void stopServer() throws Exception {
        LauncherHarness.killDescendants();
        server.close();
    }

    @Test
    void aCutConnectionEndsTheHostsRanksWithinThreeSecondsAndTheJobRestartsOnANewLogin() throws Exception {
        Path jar = LauncherHarness.testJar(dir);
        List<Integer> ports = LauncherHarness.freePorts(3);
        List<ProcessHandle> firstRanks = new CopyOnWriteArrayList<>();
        List<Long> exitedAt = new CopyOnWriteArrayList<>();
        CompletableFuture<Long> cutAt = new CompletableFuture<>();

        LauncherHarness.Run run = LauncherHarness.run(LauncherHarness.environment(Map.of()), line -> {
            Matcher m = FIRST.matcher(line);
            if (m.matches()) {
                ProcessHandle.of(Long.parseLong(m.group(2))).ifPresent(firstRanks::add);
                if (firstRanks.size() == 3) {
                    cutAt.complete(System.nanoTime());
                    firstRanks.forEach(rank -> rank.onExit().thenRun(() -> exitedAt.add(System.nanoTime())));
                    server.dropConnections();
                }
            }
        }, command -> { }, "run", "--ssh", "--ssh-dir", sshDir.toString(), "--restart-max", "1",
                "--hosts", LauncherHarness.hosts(ports, "localhost"), jar.toString(), "kill-rank-1");

        assertTrue(cutAt.isDone(), "the connection was never cut: " + run.out() + run.err());
        assertEquals(3, exitedAt.size(), "ranks of incarnation 1 that ended");
        for (long at : exitedAt) {
            long ms = TimeUnit.NANOSECONDS.toMillis(at - cutAt.join());
            assertTrue(ms <= KilledLauncher.ORPHAN_BOUND_MS, "a rank outlived its cut connection by " + ms + " ms");
        }
        assertEquals(0, run.exitCode(), run.out() + run.err());
        assertTrue(run.err().contains("restarting the job as incarnation 2 (restart 1 of 1)"), run.err());
        assertTrue(run.out().contains("[rank 0] sum=3 incarnation=2"), run.out());
        assertEquals(2, server.logins(), "a login for each incarnation: the first connection was cut");
        LauncherHarness.assertNoProcessLeft();
    }
}
