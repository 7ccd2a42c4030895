package org.sperli.launcher.ssh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sperli.launcher.LauncherHarness;
import org.sperli.launcher.command.SperliCommand;
import org.sperli.launcher.exit.ExitCodes;
import org.sperli.launcher.job.JobJar;

/**
 * The 4-rank job through a real SSH server (embedded MINA SSHD on loopback) with {@code --ssh}, over the host names
 * localhost and 127.0.0.1: the server's port, the login name and the key file come only from the test's ssh config,
 * the host key is checked against its known_hosts, the jar is staged once into the content-addressed cache of the
 * "remote" home and found there for the second host name. The server gives each command a login environment, as sshd
 * does: {@code PATH} and what the client sent, nothing of this JVM's.
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
        server = EmbeddedSshServer.startWithLoginEnvironment(home);
        server.installRankd();
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
        // Both names reach one home, and the two hosts are prepared at once: one of them (or both, racing) copies
        // the jar, and a host that finds it there says so.
        assertTrue(run.err().contains("staged job jar on localhost") || run.err().contains("staged job jar on 127.0.0.1"),
                run.err());
        for (String host : List.of("localhost", "127.0.0.1")) {
            assertTrue(run.err().contains("staged job jar on " + host) || run.err().contains("job jar already on "
                    + host), run.err());
        }
        for (String host : List.of("localhost", "127.0.0.1")) {
            assertTrue(Pattern.compile("sperli: " + Pattern.quote(host) + " ready after \\d+\\.\\d\\d s: login"
                    + " \\d+\\.\\d\\d s, probe and staging \\d+\\.\\d\\d s\n").matcher(run.err()).find(), run.err());
        }
        assertTrue(!run.err().contains("sperli-rank-pid"), "the pid line must not be shown: " + run.err());
        assertEquals(4, server.execs(), "one exec per rank");
        assertEquals(knownHostsBefore, Files.readString(sshDir.resolve("known_hosts")));
        LauncherHarness.assertNoProcessLeft();
        try (Stream<Path> left = Files.list(rankTmp)) {
            assertEquals(List.of(), left.toList(), "ranks left files in their temporary directory");
        }
    }

    /**
     * Issue 16: {@code -x} reaches SSH ranks quoted for the remote shell, byte for byte, and nothing else of the
     * launcher's environment does: not its other variables, not this JVM's, not through SSH "env" requests.
     */
    @Test
    void sshRanksGetTheXVariablesAndNothingElseOfTheLaunchersEnvironment() throws Exception {
        server.writeClientFiles(sshDir, "id_ecdsa", List.of("localhost"));
        writeConfig(null);
        List<Integer> ports = LauncherHarness.freePorts(2);
        String tricky = "it's $(echo no) \"q\" `x` \\ *";

        LauncherHarness.Run run = LauncherHarness.run(LauncherHarness.environment(Map.of(
                "SPERLI_X_COPIED", "from the launcher", "SPERLI_X_NOT_PASSED", "launcher only")),
                "run", "--ssh", "--ssh-dir", sshDir.toString(), "--rankd", rankd(),
                "-x", "SPERLI_X_SET=" + tricky, "-x", "SPERLI_X_COPIED",
                "--hosts", LauncherHarness.hosts(ports, "localhost"), jar.toString(),
                "env", "SPERLI_X_SET", "SPERLI_X_COPIED", "SPERLI_X_NOT_PASSED");

        assertEquals(0, run.exitCode(), run.err());
        for (int rank = 0; rank < 2; rank++) {
            assertTrue(run.out().contains("[rank " + rank + "] env SPERLI_X_SET=" + tricky + "\n"), run.out());
            assertTrue(run.out().contains("[rank " + rank + "] env SPERLI_X_COPIED=from the launcher\n"), run.out());
            assertTrue(run.out().contains("[rank " + rank + "] env SPERLI_X_NOT_PASSED unset\n"), run.out());
        }
        // The server itself sets USER to the login name; the client sent no "env" request at all.
        assertEquals(List.of(Map.of("USER", "sperli-test"), Map.of("USER", "sperli-test")),
                server.sentEnvironments());
        String names = run.out().lines().filter(l -> l.startsWith("[rank 0] env-names ")).findFirst().orElseThrow();
        Set<String> seen = new TreeSet<>(List.of(names.substring("[rank 0] env-names ".length()).split(",")));
        seen.removeAll(Set.of("PATH", "PWD", "OLDPWD", "SHLVL", "_", "SPERLI_X_SET", "SPERLI_X_COPIED"));
        // The host agent's: each rank's private temporary directory, which the agent removes when the rank ends.
        seen.removeAll(Set.of("SPERLI_RANK_TMPDIR", "TMPDIR"));
        server.sentEnvironments().forEach(sent -> seen.removeAll(sent.keySet()));
        assertEquals(Set.of(), seen, "variables the rank got from neither -x, the remote shell nor the server");
        LauncherHarness.assertNoProcessLeft();
    }

    /**
     * Issue 53: a host listed by an ssh_config alias logs in, but its ranks would resolve the name themselves and
     * fail 11 s later with a lost peer. The probe finds that the name does not resolve there, and the launcher refuses
     * before any rank starts, naming the alias's HostName.
     */
    @Test
    void aHostListedByAnSshConfigAliasThatRanksCannotResolveIsRefusedBeforeAnyRankStarts() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/getent")),
                "skipped: no getent on this machine, whose shell the embedded server runs");
        server.writeClientFiles(sshDir, "id_ecdsa", List.of("inner", "127.0.0.1"));
        Files.writeString(sshDir.resolve("config"), "Host inner\n    HostName 127.0.0.1\n    Port " + server.port()
                + "\n    User sperli-test\n");
        Path report = dir.resolve("report.json");

        LauncherHarness.Run run = LauncherHarness.run(LauncherHarness.environment(Map.of()),
                "run", "--ssh-dir", sshDir.toString(), "--rankd", rankd(), "--report", report.toString(),
                "--hosts", "inner/2", jar.toString(), "ring");

        String line = "host name inner does not resolve on inner (getent hosts), and the ranks there reach their peers"
                + " by the host list's names: inner is an alias of your ssh config for HostName 127.0.0.1; list the"
                + " host as 127.0.0.1 instead, or give inner an /etc/hosts entry on every host";
        assertEquals(ExitCodes.START_FAILED, run.exitCode(), run.err());
        String last = run.errLines().get(run.errLines().size() - 1);
        assertTrue(last.startsWith("sperli: job ") && last.contains(": " + line + "; ranks 2,"), run.err());
        assertEquals(1, server.execs(), "only the probe ran there: no agent, no rank");
        com.fasterxml.jackson.databind.JsonNode json = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(report.toFile());
        assertEquals(ExitCodes.START_FAILED, json.get("exitStatus").asInt(), json.toString());
        assertTrue(json.get("outcome").asText().contains(line), json.toString());
        LauncherHarness.assertNoProcessLeft();
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
        // One login, and on it one probe and one host agent, which stopped the ranks: no command per rank.
        assertEquals(1, server.logins(), "SSH connections");
        assertEquals(2, server.execs(), "exec channels (the probe and the host agent)");
    }
}
