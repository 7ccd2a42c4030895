package org.sperli.launcher.ssh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sperli.launcher.LauncherHarness;
import org.sperli.launcher.exit.ExitCodes;

/**
 * Logging in the way operators do, against a real OpenSSH server: a passphrase-protected key held by a real
 * {@code ssh-agent}, the same key with no agent (one line naming the file and {@code ssh-add}, no prompt, no hang),
 * and an OpenSSH user certificate, beside the key or named by {@code CertificateFile}, from a CA the server trusts.
 */
class SshLoginTest {
    private static final String PASSPHRASE = "correct horse battery staple";

    @TempDir
    Path dir;
    private OpenSshd sshd;
    private SshAgentProcess agent;
    private HomeCache cache;
    private Path sshDir;

    @BeforeEach
    void check() throws IOException {
        String why = OpenSshd.unavailable().orElse(null);
        assumeTrue(why == null, "skipped: " + why);
        cache = HomeCache.snapshot();
        sshDir = dir.resolve("ssh");
    }

    @AfterEach
    void stop() throws Exception {
        if (agent != null) {
            agent.close();
        }
        if (sshd != null) {
            sshd.close();
        }
        LauncherHarness.killDescendants();
        if (cache != null) {
            cache.removeAdded();
        }
    }

    @Test
    void aPassphraseProtectedKeyHeldBySshAgentLogsIn() throws Exception {
        assumeTrue(SshAgentProcess.available(), "skipped: no ssh-agent/ssh-add (Debian package openssh-client)");
        sshd = OpenSshd.start(Files.createDirectory(dir.resolve("sshd")), sshDir, user(), OpenSshd.Login.KEY,
                PASSPHRASE);
        agent = SshAgentProcess.start(Files.createDirectory(dir.resolve("agent")));
        agent.add(sshDir.resolve("id_ed25519"), PASSPHRASE, dir);

        LauncherHarness.Run run = job(Map.of("SSH_AUTH_SOCK", agent.socket().toString()));

        assertEquals(0, run.exitCode(), run.out() + run.err() + "\nsshd:\n" + sshd.log());
        assertFalse(run.err().contains("needs its passphrase"), run.err());
    }

    @Test
    void aPassphraseProtectedKeyThatNoAgentHoldsIsOneLineNamingTheFileAndSshAdd() throws Exception {
        sshd = OpenSshd.start(Files.createDirectory(dir.resolve("sshd")), sshDir, user(), OpenSshd.Login.KEY,
                PASSPHRASE);

        LauncherHarness.Run run = job(Map.of());

        assertEquals(ExitCodes.START_FAILED, run.exitCode(), run.err());
        Path key = sshDir.resolve("id_ed25519").toAbsolutePath();
        assertTrue(run.err().contains("sperli: SSH key " + key + " needs its passphrase and no ssh-agent runs"
                + " (SSH_AUTH_SOCK is not set): load it with 'ssh-add " + key + "' (sperli never asks for a"
                + " passphrase)\n"), run.err());
        assertEquals(0, sshd.logins(), sshd.log());
    }

    @Test
    void anOpenSshUserCertificateBesideTheKeyLogsInWhereTheKeyAloneIsNotAuthorized() throws Exception {
        sshd = OpenSshd.start(Files.createDirectory(dir.resolve("sshd")), sshDir, user(), OpenSshd.Login.USER_CA);

        LauncherHarness.Run refused = job(Map.of());
        assertEquals(ExitCodes.START_FAILED, refused.exitCode(), "the key alone is not authorized: " + refused.err());

        sshd.certify(sshDir.resolve("id_ed25519.pub"), user());
        LauncherHarness.Run run = job(Map.of());
        assertEquals(0, run.exitCode(), run.out() + run.err() + "\nsshd:\n" + sshd.log());
        assertTrue(sshd.log().contains("Accepted publickey") && sshd.log().contains("ED25519-CERT"), sshd.log());
    }

    @Test
    void aCertificateFileOfTheSshConfigIsOfferedWithItsKey() throws Exception {
        sshd = OpenSshd.start(Files.createDirectory(dir.resolve("sshd")), sshDir, user(), OpenSshd.Login.USER_CA);
        Path elsewhere = Files.createDirectory(dir.resolve("certs"));
        Files.copy(sshDir.resolve("id_ed25519.pub"), elsewhere.resolve("login.pub"));
        Path cert = sshd.certify(elsewhere.resolve("login.pub"), user());
        Files.writeString(sshDir.resolve("config"), Files.readString(sshDir.resolve("config"))
                + "    CertificateFile " + cert + "\n");

        LauncherHarness.Run run = job(Map.of());

        assertEquals(0, run.exitCode(), run.out() + run.err() + "\nsshd:\n" + sshd.log());
        assertTrue(sshd.log().contains("ED25519-CERT"), sshd.log());
    }

    private LauncherHarness.Run job(Map<String, String> env) throws IOException {
        Map<String, String> all = new HashMap<>(env);
        all.put(RankdClasspath.VARIABLE, StagedRankdTest.rankdAllJar().toString());
        return LauncherHarness.run(LauncherHarness.environment(all), "run", "--ssh", "--ssh-dir", sshDir.toString(),
                "--remote-java", Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--port-base", Integer.toString(LauncherHarness.freePortRange(2)), "--hosts", "localhost/2",
                LauncherHarness.testJar(dir).toString());
    }

    private static String user() {
        return System.getProperty("user.name");
    }

}
