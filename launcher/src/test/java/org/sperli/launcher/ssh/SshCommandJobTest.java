package org.sperli.launcher.ssh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sperli.launcher.LauncherHarness;
import org.sperli.launcher.exit.ExitCodes;

/**
 * {@code --ssh-command} through the system's OpenSSH client ({@code /usr/bin/ssh}) against a real sshd
 * ({@link OpenSshd}): the probe, the staging of the rank daemon and the job jar and the host agent all go through the
 * program with a test config, the job completes, and nothing is left behind; a refused login and an unknown host key
 * are one line each with ssh's exit status and last line; a host the program cannot reach has its ranks moved.
 */
class SshCommandJobTest {
    static final Path SSH = Path.of("/usr/bin/ssh");

    @TempDir
    Path dir;
    private OpenSshd sshd;
    private Path sshDir;
    private HomeCache cache;

    @BeforeEach
    void startSshd() throws Exception {
        String why = OpenSshd.unavailable().orElse(Files.isExecutable(SSH) ? null
                : "no OpenSSH client at " + SSH + " (Debian package openssh-client)");
        assumeTrue(why == null, "skipped: " + why);
        cache = HomeCache.snapshot();
        sshDir = dir.resolve("ssh");
        sshd = OpenSshd.start(Files.createDirectory(dir.resolve("sshd")), sshDir, System.getProperty("user.name"));
    }

    @AfterEach
    void stopSshd() throws Exception {
        if (sshd == null) {
            return;
        }
        sshd.close();
        LauncherHarness.killDescendants();
        cache.removeAdded();
    }

    /** The operator's ssh as the tests give it: the test's config, key and known_hosts, never a prompt. */
    private String sshCommand(String... more) {
        return String.join(" ", Stream.concat(Stream.of(SSH.toString(), "-F", sshDir.resolve("config").toString(),
                "-i", sshDir.resolve("id_ed25519").toString(), "-o", "UserKnownHostsFile=" + sshDir.resolve(
                        "known_hosts"), "-o", "BatchMode=yes"), Stream.of(more)).toList());
    }

    private LauncherHarness.Run run(String sshCommand, String hosts, String... more) throws IOException {
        Path jar = LauncherHarness.testJar(dir);
        List<String> args = new ArrayList<>(List.of("run", "--ssh", "--ssh-command", sshCommand,
                "--remote-java", Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-v",
                "--hosts", hosts));
        args.addAll(List.of(more));
        args.add(jar.toString());
        args.add("ring");
        return LauncherHarness.run(LauncherHarness.environment(Map.of(RankdClasspath.VARIABLE,
                StagedRankdTest.rankdAllJar().toString())), args.toArray(String[]::new));
    }

    @Test
    void aJobRunsThroughTheSystemsSshWithTheRankDaemonAndTheJarStagedThroughIt() throws Exception {
        int base = LauncherHarness.freePortRange(3);

        LauncherHarness.Run run = run(sshCommand(), "localhost/3", "--port-base", Integer.toString(base));

        assertEquals(0, run.exitCode(), run.out() + run.err() + "\nsshd:\n" + sshd.log());
        assertTrue(run.out().contains("[rank 0] sum=3 incarnation=1"), run.out());
        assertTrue(run.err().contains("reaching localhost through --ssh-command: " + SSH + " -F "), run.err());
        assertTrue(run.err().contains("staged the rank daemon on localhost (1 of 1 jars)")
                || run.err().contains("rank daemon already on localhost"), run.err());
        assertTrue(run.err().contains("staged job jar on localhost as ~/.cache/sperli/jars/")
                || run.err().contains("job jar already on localhost as ~/.cache/sperli/jars/"), run.err());
        assertTrue(run.err().contains("(ssh localhost pid "), "the agent runs through the program: " + run.err());
        // The probe, the two copies, each with a look first, and the agent: each a login of the program's own.
        assertTrue(sshd.logins() >= 2, sshd.log());
        sshd.assertNothingLeftButItself();
    }

    @Test
    void aLoginTheServerRefusesIsOneLineWithTheProgramsStatusAndLastLine() throws Exception {
        Path otherKey = dir.resolve("other_ed25519");
        Process keygen = new ProcessBuilder("/usr/bin/ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f",
                otherKey.toString()).redirectErrorStream(true).start();
        assertEquals(0, keygen.waitFor());
        String command = SSH + " -F " + sshDir.resolve("config") + " -o IdentitiesOnly=yes -o IdentityAgent=none"
                + " -i " + otherKey + " -o UserKnownHostsFile=" + sshDir.resolve("known_hosts") + " -o BatchMode=yes";

        LauncherHarness.Run run = run(command, "localhost/2");

        assertEquals(ExitCodes.START_FAILED, run.exitCode(), run.err());
        String last = run.errLines().get(run.errLines().size() - 1);
        assertTrue(last.contains(": SSH login to localhost through --ssh-command failed: " + SSH + " exited with"
                + " status 255: " + System.getProperty("user.name") + "@127.0.0.1: Permission denied (publickey).;"
                + " ranks 2,"), run.err());
        assertFalse(run.err().contains("\tat "), run.err());
        sshd.assertNothingLeftButItself();
    }

    @Test
    void anUnknownHostKeyIsOneLineWithTheProgramsStatusAndLastLine() throws Exception {
        Path empty = Files.writeString(dir.resolve("known_hosts_empty"), "");
        String command = SSH + " -F " + sshDir.resolve("config") + " -i " + sshDir.resolve("id_ed25519")
                + " -o UserKnownHostsFile=" + empty + " -o GlobalKnownHostsFile=/dev/null -o BatchMode=yes";

        LauncherHarness.Run run = run(command, "localhost/2");

        assertEquals(ExitCodes.START_FAILED, run.exitCode(), run.err());
        String last = run.errLines().get(run.errLines().size() - 1);
        assertTrue(last.contains(": SSH login to localhost through --ssh-command failed: " + SSH + " exited with"
                + " status 255: Host key verification failed.; ranks 2,"), run.err());
        assertEquals("", Files.readString(empty), "nothing recorded");
        sshd.assertNothingLeftButItself();
    }

    @Test
    void aHostTheProgramCannotReachHasItsRanksMoved() throws Exception {
        int closed = LauncherHarness.freePorts(1).get(0);
        Files.writeString(sshDir.resolve("config"), Files.readString(sshDir.resolve("config"))
                + "Host 127.0.0.1\n    Port " + closed + "\n");
        List<Integer> ports = LauncherHarness.freePorts(3);

        LauncherHarness.Run run = run(sshCommand(), "localhost:" + ports.get(0) + ",127.0.0.1:" + ports.get(1),
                "--port-base", ports.get(2).toString());

        assertEquals(0, run.exitCode(), run.err() + "\nsshd:\n" + sshd.log());
        assertTrue(run.err().contains("host 127.0.0.1 cannot be reached: ssh: connect to host 127.0.0.1 port "
                + closed + ": Connection refused"), run.err());
        assertTrue(run.err().contains("rank 1 moves from 127.0.0.1 to localhost:" + ports.get(2)), run.err());
        assertTrue(run.out().contains("[rank 0] sum=1 incarnation=1"), run.out());
        sshd.assertNothingLeftButItself();
    }

    /** The alias found with {@code ssh -G}: its HostName is named, and nothing is staged or started. */
    @Test
    void aHostListedByAnSshConfigAliasIsRefusedNamingTheHostNameThatSshGFinds() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/getent")), "skipped: no getent on this machine");
        Files.writeString(sshDir.resolve("config"), Files.readString(sshDir.resolve("config"))
                + "Host inner\n    HostName 127.0.0.1\n    Port " + sshd.port() + "\n    User "
                + System.getProperty("user.name") + "\n");

        LauncherHarness.Run run = run(sshCommand(), "inner/2");

        assertEquals(ExitCodes.START_FAILED, run.exitCode(), run.err());
        String last = run.errLines().get(run.errLines().size() - 1);
        assertTrue(last.contains(": host name inner does not resolve on inner (getent hosts), and the ranks there reach"
                + " their peers by the host list's names: inner is an alias of your ssh config for HostName 127.0.0.1;"
                + " list the host as 127.0.0.1 instead, or give inner an /etc/hosts entry on every host; ranks 2,"),
                run.err());
        assertFalse(run.err().contains("staged"), run.err());
        assertEquals(1, sshd.logins(), "the probe's login only:\n" + sshd.log());
        sshd.assertNothingLeftButItself();
    }



}
