package org.sperli.launcher.ssh;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.apache.sshd.common.config.keys.writer.openssh.OpenSSHKeyPairResourceWriter;
import org.apache.sshd.common.file.virtualfs.VirtualFileSystemFactory;
import org.apache.sshd.common.session.Session;
import org.apache.sshd.common.session.SessionListener;
import org.apache.sshd.core.CoreModuleProperties;
import org.apache.sshd.server.SshServer;
import org.apache.sshd.server.keyprovider.SimpleGeneratorHostKeyProvider;
import org.apache.sshd.server.session.ServerSession;
import org.apache.sshd.sftp.server.SftpEventListener;
import org.apache.sshd.sftp.server.SftpSubsystemFactory;

/**
 * An SSH server on loopback for tests: a host key generated in memory, public-key login with one generated user
 * key only, SFTP rooted at a "remote home" directory, and exec commands run by {@code /bin/sh -c} in that directory
 * ({@link ShellCommand}), as OpenSSH does.
 */
final class EmbeddedSshServer implements AutoCloseable {
    /** Channels a connection may have open at once: OpenSSH's default MaxSessions. */
    static final int MAX_SESSIONS = 10;
    private final AtomicInteger logins = new AtomicInteger();
    private final SshServer server;
    private final Path home;
    private final KeyPair userKey;
    private final AtomicInteger execs = new AtomicInteger();
    private final AtomicInteger sftpSessions = new AtomicInteger();
    private final List<Map<String, String>> sentEnvironments = new CopyOnWriteArrayList<>();

    private EmbeddedSshServer(SshServer server, Path home, KeyPair userKey) {
        this.server = server;
        this.home = home;
        this.userKey = userKey;
    }

    static EmbeddedSshServer start(Path home) throws IOException, GeneralSecurityException {
        return start(home, true);
    }

    /**
     * As {@link #start(Path)}; with {@code killOnClose} false a command whose channel closes is not killed, only its
     * standard input ends, as under OpenSSH's sshd.
     */
    static EmbeddedSshServer start(Path home, boolean killOnClose) throws IOException, GeneralSecurityException {
        return start(home, killOnClose, false);
    }

    /**
     * As {@link #start(Path)}, with every command getting a login environment as under sshd: {@code PATH} and the
     * variables the client sent, nothing of this JVM's environment.
     */
    static EmbeddedSshServer startWithLoginEnvironment(Path home) throws IOException, GeneralSecurityException {
        return start(home, true, true);
    }

    /** As {@link #start(Path)}, with no SFTP subsystem, as an sshd_config without its {@code Subsystem sftp} line. */
    static EmbeddedSshServer startWithoutSftp(Path home) throws IOException, GeneralSecurityException {
        return start(home, true, false, false);
    }

    private static EmbeddedSshServer start(Path home, boolean killOnClose, boolean loginEnvironment)
            throws IOException, GeneralSecurityException {
        return start(home, killOnClose, loginEnvironment, true);
    }

    private static EmbeddedSshServer start(Path home, boolean killOnClose, boolean loginEnvironment, boolean sftp)
            throws IOException, GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(256);
        KeyPair userKey = generator.generateKeyPair();
        SshServer server = SshServer.setUpDefaultServer();
        EmbeddedSshServer s = new EmbeddedSshServer(server, home, userKey);
        server.setHost("127.0.0.1");
        server.setPort(0);
        // As a stock OpenSSH server (MaxSessions 10): a launcher that opened a channel per rank failed at the 11th.
        CoreModuleProperties.MAX_CONCURRENT_CHANNELS.set(server, MAX_SESSIONS);
        server.addSessionListener(new SessionListener() {
            @Override
            public void sessionCreated(Session session) {
                s.logins.incrementAndGet();
            }
        });
        server.setKeyPairProvider(new SimpleGeneratorHostKeyProvider());
        server.setPublickeyAuthenticator((user, key, session) -> KeyUtils.compareKeys(key, userKey.getPublic()));
        server.setPasswordAuthenticator(null);
        server.setKeyboardInteractiveAuthenticator(null);
        server.setFileSystemFactory(new VirtualFileSystemFactory(home));
        SftpSubsystemFactory sftpFactory = new SftpSubsystemFactory();
        sftpFactory.addSftpEventListener(new SftpEventListener() {
            @Override
            public void initialized(ServerSession session, int version) {
                s.sftpSessions.incrementAndGet();
            }
        });
        server.setSubsystemFactories(sftp ? List.of(sftpFactory) : List.of());
        server.setCommandFactory((channel, command) -> {
            s.execs.incrementAndGet();
            return new ShellCommand(command, home, killOnClose, loginEnvironment, s.sentEnvironments::add);
        });
        server.start();
        return s;
    }

    /**
     * Puts a {@code sperli-rankd} on the "remote" PATH ({@code ~/bin}, which every command's PATH starts with) that
     * runs this JVM's rank daemon, as an installed one would: the host agent and the ranks need no staging then.
     */
    void installRankd() throws IOException {
        installRankd("");
    }

    /** As {@link #installRankd()}, the rank daemon's JVM started with {@code jvmOptions} (words for the shell). */
    void installRankd(String jvmOptions) throws IOException {
        Path bin = Files.createDirectories(home.resolve(ShellCommand.BIN));
        Path script = bin.resolve("sperli-rankd");
        Files.writeString(script, "#!/bin/sh\nexec '" + Path.of(System.getProperty("java.home"), "bin", "java")
                + "' " + jvmOptions + " -cp '" + System.getProperty("java.class.path") + "' org.sperli.rankd.Main \"$@\"\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    }

    /** Cuts every open connection at once, as a network that drops the host would for the launcher. */
    void dropConnections() {
        server.getActiveSessions().forEach(session -> session.close(true));
    }

    /** SSH connections (sessions) opened to this server so far. */
    int logins() {
        return logins.get();
    }

    int port() {
        return server.getPort();
    }

    Path home() {
        return home;
    }

    /** SFTP sessions begun so far. */
    int sftpSessions() {
        return sftpSessions.get();
    }

    /** Exec requests served so far. */
    int execs() {
        return execs.get();
    }

    /** The environment each exec request found on the server (the client's "env" requests and the server's own). */
    List<Map<String, String>> sentEnvironments() {
        return List.copyOf(sentEnvironments);
    }

    /**
     * Fills {@code sshDir} for a launcher that reaches this server as {@code localhost}: the user key as
     * {@code id_ecdsa}, a known_hosts line, and a config that names the server's port.
     */
    void writeLocalhostClient(Path sshDir) throws IOException, GeneralSecurityException {
        writeClientFiles(sshDir, "id_ecdsa", List.of("localhost"));
        Files.writeString(sshDir.resolve("config"), "Host localhost\n    Port " + port() + "\n");
    }

    PublicKey hostKey() throws IOException, GeneralSecurityException {
        return server.getKeyPairProvider().loadKeys(null).iterator().next().getPublic();
    }

    /**
     * Fills {@code sshDir} like a user's ~/.ssh: the user key (as {@code keyName}, OpenSSH format, 0600) and,
     * when {@code knownHostNames} is not empty, a known_hosts line per name for this server's host key.
     */
    void writeClientFiles(Path sshDir, String keyName, List<String> knownHostNames)
            throws IOException, GeneralSecurityException {
        Files.createDirectories(sshDir);
        Files.setPosixFilePermissions(sshDir, PosixFilePermissions.fromString("rwx------"));
        Path key = sshDir.resolve(keyName);
        try (OutputStream out = Files.newOutputStream(key)) {
            OpenSSHKeyPairResourceWriter.INSTANCE.writePrivateKey(userKey, "sperli-test", null, out);
        }
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
        if (!knownHostNames.isEmpty()) {
            StringBuilder lines = new StringBuilder();
            for (String name : knownHostNames) {
                lines.append('[').append(name).append("]:").append(port()).append(' ')
                        .append(PublicKeyEntry.toString(hostKey())).append('\n');
            }
            Files.writeString(sshDir.resolve("known_hosts"), lines, StandardCharsets.US_ASCII);
        }
    }

    @Override
    public void close() throws IOException {
        server.stop(true);
    }
}
