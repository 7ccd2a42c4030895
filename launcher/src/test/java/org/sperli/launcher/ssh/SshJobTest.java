package org.sperli.launcher.ssh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.time.Duration;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sperli.launcher.ExitCodes;
import org.sperli.launcher.LauncherHarness;
import org.sperli.launcher.SperliCommand;
import org.sperli.launcher.job.JobJar;

/**
 * The 4-rank job through a real SSH server (embedded MINA SSHD on loopback) with {@code --ssh}, over the host names
 * localhost and 127.0.0.1: the server's port, the login name and the key file come only from the test's ssh config,
 * the host key is checked against its known_hosts, the jar is staged once into the content-addressed cache of the
 * "remote" home and found there for the second host name.
 */
class SshJobTest {
    @TempDir
    Path dir;

    private EmbeddedSshServer server;
    private Path sshDir;
    private Path rankTmp;
    private Path jar;

    @BeforeEach
    void startServer() throws Exception {
        Path home = Files.createDirectory(dir.resolve("remote-home"));
        rankTmp = Files.createDirectory(dir.resolve("remote-tmp"));
        sshDir = dir.resolve("ssh");
        server = EmbeddedSshServer.start(home);
        jar = LauncherHarness.testJar(dir);
    }

    @AfterEach
    void stopServer() throws Exception {
        LauncherHarness.killDescendants();
        server.close();
    }

    /** What the "remote" shell runs: this JVM's java with this class path, as an installed sperli-rankd would. */
    private String rankd() {
        return Path.of(System.getProperty("java.home"), "bin", "java") + " " + LauncherHarness.RANK_JAVA_OPTS
                + " -Djava.io.tmpdir=" + rankTmp + " -cp " + System.getProperty("java.class.path")
                + " org.sperli.rankd.Main";
    }

    private void writeConfig(String identityFileOrNull) throws Exception {
        String config = "Host localhost 127.0.0.1\n"
                + "    Port " + server.port() + "\n"
                + "    User sperli-test\n"
                + (identityFileOrNull == null ? "" : "    IdentityFile " + sshDir.resolve(identityFileOrNull) + "\n");
        Files.writeString(sshDir.resolve("config"), config);
    }

    @Test
    void fourRanksOverSshOnTwoHostNamesWithKnownHostsChecked() throws Exception {
        // The key is not an id_* file: only the config's IdentityFile can find it.
        server.writeClientFiles(sshDir, "sperli_test_key", List.of("localhost", "127.0.0.1"));
        writeConfig("sperli_test_key");
        String knownHostsBefore = Files.readString(sshDir.resolve("known_hosts"));
        List<Integer> ports = LauncherHarness.freePorts(4);

        LauncherHarness.Run run = LauncherHarness.run(LauncherHarness.environment(Map.of()),
                "run", "--ssh", "--ssh-dir", sshDir.toString(), "--rankd", rankd(), "-v",
                "--hosts", LauncherHarness.hosts(ports, "localhost", "127.0.0.1"), jar.toString(), "ring");

        assertEquals(0, run.exitCode(), run.err());
        for (int rank = 0; rank < 4; rank++) {
            assertTrue(run.out().contains("[rank " + rank + "] rank=" + rank + " size=4 incarnation=1"), run.out());
        }
        assertTrue(run.out().contains("[rank 0] sum=6 incarnation=1"), run.out());
        String sha = JobJar.open(jar).sha256Hex();
        assertTrue(Files.isRegularFile(server.home().resolve(".cache/sperli/jars/" + sha + ".jar")));
        assertTrue(run.err().contains("staged job jar on localhost"), run.err());
        assertTrue(run.err().contains("job jar already on 127.0.0.1"), run.err());
        assertTrue(!run.err().contains("sperli-rank-pid"), "the pid line must not be shown: " + run.err());
        assertEquals(4, server.execs(), "one exec per rank");
        assertEquals(knownHostsBefore, Files.readString(sshDir.resolve("known_hosts")));
        LauncherHarness.assertNoProcessLeft();
        try (Stream<Path> left = Files.list(rankTmp)) {
            assertEquals(List.of(), left.toList(), "ranks left files in their temporary directory");
        }
    }

    @Test
    void anUnknownHostKeyIsRefusedWithoutAcceptNewHostKeys() throws Exception {
        server.writeClientFiles(sshDir, "id_ecdsa", List.of());
        writeConfig(null);

        LauncherHarness.Run run = LauncherHarness.run(LauncherHarness.environment(Map.of()),
                "run", "--ssh", "--ssh-dir", sshDir.toString(), "--rankd", rankd(),
                "--hosts", "localhost,localhost", jar.toString(), "ring");

        assertEquals(ExitCodes.START_FAILED, run.exitCode(), run.err());
        assertTrue(run.err().contains("SSH to localhost refused: host key ecdsa-sha2-nistp"), run.err());
        assertTrue(run.err().contains("is not in " + sshDir.resolve("known_hosts")
                + "; check it, then rerun with --accept-new-host-keys"), run.err());
        assertEquals(0, server.execs(), "nothing may run on a host whose key was refused");
        assertTrue(!Files.exists(sshDir.resolve("known_hosts")), "nothing recorded without the option");
        LauncherHarness.assertNoProcessLeft();
    }

    @Test
    void aRankWhoseHostCannotBeReachedMovesToAnotherListedHost() throws Exception {
        server.writeClientFiles(sshDir, "id_ecdsa", List.of("localhost"));
        List<Integer> ports = LauncherHarness.freePorts(3);
        int closedPort = LauncherHarness.freePorts(1).get(0);
        Files.writeString(sshDir.resolve("config"), "Host localhost\n    Port " + server.port() + "\n"
                + "Host 127.0.0.1\n    Port " + closedPort + "\n");

        LauncherHarness.Run run = LauncherHarness.run(LauncherHarness.environment(Map.of()),
                "run", "--ssh", "--ssh-dir", sshDir.toString(), "--rankd", rankd(),
                "--port-base", ports.get(2).toString(),
                "--hosts", "localhost:" + ports.get(0) + ",127.0.0.1:" + ports.get(1), jar.toString(), "ring");

        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.err().contains("host 127.0.0.1 cannot be reached"), run.err());
        assertTrue(run.err().contains("rank 1 moves from 127.0.0.1 to localhost:" + ports.get(2)), run.err());
        assertTrue(run.out().contains("[rank 0] sum=1 incarnation=1"), run.out());
        assertEquals(2, server.execs());
        LauncherHarness.assertNoProcessLeft();
    }

    @Test
    void stoppingTheLauncherLeavesNoRankOnTheSshHost() throws Exception {
        server.writeClientFiles(sshDir, "id_ecdsa", List.of("localhost"));
        writeConfig(null);
        List<Integer> ports = LauncherHarness.freePorts(2);
        CountDownLatch waiting = new CountDownLatch(2);
        AtomicReference<SperliCommand> command = new AtomicReference<>();
        Thread stopper = new Thread(() -> {
            try {
                if (waiting.await(LauncherHarness.RUN_LIMIT.toSeconds(), TimeUnit.SECONDS)) {
                    command.get().jobControl().stopAll(Duration.ofSeconds(30));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        stopper.start();

        LauncherHarness.Run run = LauncherHarness.run(LauncherHarness.environment(Map.of()), line -> {
            if (line.endsWith("] waiting")) {
                waiting.countDown();
            }
        }, command::set, "run", "--ssh", "--ssh-dir", sshDir.toString(), "--rankd", rankd(),
                "--hosts", LauncherHarness.hosts(ports, "localhost"), jar.toString(), "wait");
        stopper.join(Duration.ofSeconds(30).toMillis());

        assertEquals(ExitCodes.TERMINATED, run.exitCode(), run.err());
        assertTrue(run.err().contains("stopped by the operator; ranks 2"), run.err());
        // The "remote" rank processes are children of this JVM (the server's shells): none may be left.
        LauncherHarness.assertNoProcessLeft();
        assertTrue(server.execs() > 2, "the ranks were stopped by pid over SSH: " + server.execs() + " execs");
    }
}
