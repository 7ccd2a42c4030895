package org.sperli.launcher.ssh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.util.ArrayList;
import java.util.List;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sperli.launcher.exit.ExitCodes;
import org.sperli.launcher.exit.LauncherException;
import org.sperli.launcher.job.HostUnreachableException;

/** Host keys, logins and unreachable hosts, against the embedded server. */
class SshTransportTest {
    @TempDir
    Path dir;

    private EmbeddedSshServer server;
    private Path sshDir;
    private final List<String> notes = new ArrayList<>();

    @BeforeEach
    void startServer() throws Exception {
        server = EmbeddedSshServer.start(Files.createDirectory(dir.resolve("home")));
        sshDir = dir.resolve("ssh");
        server.writeClientFiles(sshDir, "id_ecdsa", List.of());
        Files.writeString(sshDir.resolve("config"), "Host localhost\n    Port " + server.port() + "\n");
    }

    @AfterEach
    void stopServer() throws Exception {
        server.close();
    }

    private ClientSession connect(boolean acceptNew) throws HostUnreachableException {
        try (SshTransport transport = SshTransport.start(new SshSettings(sshDir, acceptNew, "tester"), notes::add)) {
            ClientSession session = transport.connect("localhost");
            assertTrue(session.isAuthenticated());
            return session;
        }
    }

    @Test
    void acceptNewHostKeysRecordsTheKeyAndLaterRunsCheckIt() throws Exception {
        connect(true);
        String known = Files.readString(sshDir.resolve("known_hosts"));
        assertTrue(known.contains("[localhost]:" + server.port()), known);
        assertTrue(known.contains(PublicKeyEntry.toString(server.hostKey())), known);

        connect(false);
        assertEquals(known, Files.readString(sshDir.resolve("known_hosts")), "a known key is not written again");
    }

    @Test
    void aChangedHostKeyIsRefusedEvenWithAcceptNew() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(256);
        String otherKey = PublicKeyEntry.toString(generator.generateKeyPair().getPublic());
        Files.writeString(sshDir.resolve("known_hosts"), "[localhost]:" + server.port() + " " + otherKey + "\n");

        LauncherException e = assertThrows(LauncherException.class, () -> connect(true));
        assertEquals(ExitCodes.START_FAILED, e.exitCode());
        assertTrue(e.getMessage().contains("CHANGED"), e.getMessage());
    }

    /**
     * The reason travels beside the session, not on it: a refused key exchange closes the session while the launcher
     * asks why, and in 2 of 10 runs the reason kept on the session was gone, leaving "server key did not validate"
     * with a hint at the operator's own keys.
     */
    @Test
    void anUnknownHostKeyIsNamedAsSuchEveryTime() {
        for (int i = 0; i < 10; i++) {
            LauncherException e = assertThrows(LauncherException.class, () -> connect(false));
            assertEquals(ExitCodes.START_FAILED, e.exitCode());
            assertTrue(e.getMessage().startsWith("SSH to localhost refused: host key ")
                    && e.getMessage().contains(" is not in " + sshDir.resolve("known_hosts")), "run " + i + ": "
                    + e.getMessage());
        }
    }

    @Test
    void aRefusedLoginNamesTheKeysTried() throws Exception {
        Files.delete(sshDir.resolve("id_ecdsa"));
        LauncherException e = assertThrows(LauncherException.class, () -> connect(true));
        assertEquals(ExitCodes.START_FAILED, e.exitCode());
        assertTrue(e.getMessage().startsWith("SSH login to localhost as "), e.getMessage());
        assertTrue(e.getMessage().contains(" failed: "), e.getMessage());
    }

    @Test
    void aClosedPortIsAnUnreachableHost() throws Exception {
        int port = server.port();
        server.close();
        Files.writeString(sshDir.resolve("config"), "Host localhost\n    Port " + port + "\n");
        HostUnreachableException e = assertThrows(HostUnreachableException.class, () -> connect(true));
        assertEquals("localhost", e.host());
    }
}
