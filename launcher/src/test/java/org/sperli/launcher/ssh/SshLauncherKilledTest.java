package org.sperli.launcher.ssh;


import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sperli.launcher.CommandLines;
import org.sperli.launcher.KilledLauncher;
import org.sperli.launcher.LauncherHarness;
import org.sperli.launcher.Main;

/**
 * Issue 14, point 2, over SSH: a launcher killed with SIGKILL leaves no rank behind on an SSH host either. The test's
 * SSH server is made to behave as OpenSSH's sshd: when the launcher's connection goes, it only ends the commands'
 * standard input, it kills nothing; the ranks must notice by themselves.
 */
@Timeout(120)
class SshLauncherKilledTest {
    private static final String RANK_MARKER = "-Dsperli.test.role=ssh-rank";

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
        // The marker comes before the class path: the JDK shows only the first 4 KiB of a process's command line,
        // and a local Maven repository's class path is longer than that.
        String rankd = Path.of(System.getProperty("java.home"), "bin", "java") + " " + RANK_MARKER + " "
                + LauncherHarness.RANK_JAVA_OPTS + " -Djava.io.tmpdir=" + rankTmp + " -cp "
                + System.getProperty("java.class.path") + " org.sperli.rankd.Main";
        // The host agent is the installed sperli-rankd, marked too, its directory in rankTmp.
        server.installRankd(RANK_MARKER + " -Djava.io.tmpdir=" + rankTmp);
        List<Integer> ports = LauncherHarness.freePorts(3);
        Path out = dir.resolve("launcher.out");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "run", "--ssh", "--ssh-dir", sshDir.toString(), "--rankd", rankd,
                "--hosts", LauncherHarness.hosts(ports, "localhost"), jar.toString(), "wait"));
        KilledLauncher launcher = KilledLauncher.start(new ProcessBuilder(command), out, 3);
        // The ranks are children of the SSH server, that is of this JVM, not of the launcher.
        launcher.killAndAssertNothingLeft(() -> ProcessHandle.current().descendants()
                .filter(p -> p.pid() != launcher.process().pid())
                .filter(p -> CommandLines.of(p).contains(RANK_MARKER)).toList(), 4, rankTmp);
    }
}
