package org.sperli.launcher.ssh;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.sperli.launcher.CommandLines;
import org.sperli.launcher.LauncherHarness;

/**
 * A real OpenSSH server (Debian's {@code openssh-server}) for one test: its own host key, a temporary
 * {@code authorized_keys} with a key of the test's, on 127.0.0.1 and a free port, Debian's default limits
 * ({@code MaxSessions 10}, {@code MaxStartups 10:30:100}: nothing in the configuration changes them), logging every
 * accepted login to its stderr, which the test reads. {@link #close} stops it by its PID and removes what it made
 * ({@code /run/sshd}, its privilege separation directory, when it was not there before).
 */
final class OpenSshd implements AutoCloseable {
    static final Path SSHD = Path.of("/usr/sbin/sshd");
    private static final Path PRIVSEP_DIR = Path.of("/run/sshd");
    private static final Duration START_LIMIT = Duration.ofSeconds(10);

    private final Path dir;
    private final Process process;
    private final int port;
    private final Path log;
    private final boolean madePrivsepDir;

    private OpenSshd(Process process, int port, Path log, boolean madePrivsepDir, Path dir) {
        this.dir = dir;
        this.process = process;
        this.port = port;
        this.log = log;
        this.madePrivsepDir = madePrivsepDir;
    }

    /** Why a real sshd cannot be started here, or empty when it can. */
    static Optional<String> unavailable() {
        if (!Files.isExecutable(SSHD) || !Files.isExecutable(Path.of("/usr/bin/ssh-keygen"))) {
            return Optional.of("no OpenSSH server at " + SSHD + " (Debian package openssh-server; .ci/run installs it)");
        }
        return Optional.empty();
    }

    /**
     * Starts sshd with its files in {@code dir}, letting in {@code user} with a new key; fills {@code sshDir} for a
     * launcher that reaches it as {@code localhost} (the key as {@code id_ed25519}, known_hosts, a config naming the
     * port and user).
     */
    static OpenSshd start(Path dir, Path sshDir, String user) throws IOException, InterruptedException {
        return start(dir, sshDir, user, Login.KEY);
    }

    /**
     * How the test's user logs in: its key listed in {@code authorized_keys}; or only by a certificate of that key
     * from a user CA the server trusts ({@code TrustedUserCAKeys}; {@code authorized_keys} stays empty), which
     * {@link #certify} makes.
     */
    enum Login { KEY, USER_CA }

    /** As {@link #start(Path, Path, String)}, the user's key protected by {@code passphrase} when not empty. */
    static OpenSshd start(Path dir, Path sshDir, String user, Login login, String passphrase)
            throws IOException, InterruptedException {
        Files.createDirectories(sshDir);
        keygen(sshDir.resolve("id_ed25519"), passphrase);
        return start(dir, sshDir, user, login);
    }

    static OpenSshd start(Path dir, Path sshDir, String user, Login login) throws IOException, InterruptedException {
        Files.createDirectories(sshDir);
        keygen(dir.resolve("host_ed25519"));
        if (!Files.exists(sshDir.resolve("id_ed25519"))) {
            keygen(sshDir.resolve("id_ed25519"));
        }
        if (login == Login.KEY) {
            Files.copy(sshDir.resolve("id_ed25519.pub"), dir.resolve("authorized_keys"));
        } else {
            Files.writeString(dir.resolve("authorized_keys"), "");
            keygen(dir.resolve("user_ca"));
        }
        int port = LauncherHarness.freePorts(1).get(0);
        Path config = dir.resolve("sshd_config");
        Files.writeString(config, String.join("\n",
                "Port " + port,
                "ListenAddress 127.0.0.1",
                "HostKey " + dir.resolve("host_ed25519"),
                "PidFile " + dir.resolve("sshd.pid"),
                "AuthorizedKeysFile " + dir.resolve("authorized_keys"),
                "PasswordAuthentication no",
                "KbdInteractiveAuthentication no",
                "UsePAM no",
                // The test's temporary directory is not root's own, which strict modes would refuse.
                "StrictModes no",
                "PermitRootLogin prohibit-password",
                "AllowUsers " + user,
                login == Login.USER_CA ? "TrustedUserCAKeys " + dir.resolve("user_ca.pub") : "",
                "Subsystem sftp /usr/lib/openssh/sftp-server",
                "LogLevel VERBOSE", ""));
        String hostKey = Files.readString(dir.resolve("host_ed25519.pub"), StandardCharsets.US_ASCII).strip();
        String[] parts = hostKey.split(" ");
        Files.writeString(sshDir.resolve("known_hosts"), "[localhost]:" + port + " " + parts[0] + " " + parts[1]
                + "\n[127.0.0.1]:" + port + " " + parts[0] + " " + parts[1] + "\n");
        Files.writeString(sshDir.resolve("config"), "Host localhost\n    HostName 127.0.0.1\n    Port " + port
                + "\n    User " + user + "\n");
        boolean madePrivsepDir = !Files.isDirectory(PRIVSEP_DIR);
        if (madePrivsepDir) {
            Files.createDirectories(PRIVSEP_DIR);
        }
        Path log = dir.resolve("sshd.log");
        Process process = new ProcessBuilder(SSHD.toString(), "-D", "-e", "-f", config.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        OpenSshd sshd = new OpenSshd(process, port, log, madePrivsepDir, dir);
        sshd.awaitListening();
        return sshd;
    }

    int port() {
        return port;
    }

    long pid() {
        return process.pid();
    }

    /** How many logins sshd accepted so far. */
    long logins() throws IOException {
        return Files.readAllLines(log, StandardCharsets.UTF_8).stream()
                .filter(l -> l.contains("Accepted publickey")).count();
    }

    /**
     * Waits up to 10 s for every child process of this JVM but sshd's listener to end, then asserts that none is left:
     * the ranks and agents of a job end with it.
     */
    void assertNothingLeftButItself() throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < deadline && others().findAny().isPresent()) {
            Thread.sleep(100);
        }
        assertEquals(List.of(), others().map(p -> p.pid() + " " + CommandLines.of(p)).toList(),
                "processes left besides sshd");
    }

    private Stream<ProcessHandle> others() {
        return ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)
                .filter(p -> p.pid() != process.pid());
    }

    String log() throws IOException {
        return Files.readString(log, StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws IOException, InterruptedException {
        process.toHandle().descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(5, TimeUnit.SECONDS);
        }
        if (madePrivsepDir) {
            Files.deleteIfExists(PRIVSEP_DIR);
        }
    }

    private void awaitListening() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + START_LIMIT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("sshd ended at once: " + log());
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                Thread.sleep(50);
            }
        }
        close();
        throw new IOException("sshd did not listen within " + START_LIMIT.toSeconds() + " s: " + log());
    }

    /**
     * Signs {@code publicKey} ({@code NAME.pub}) with this server's user CA for {@code user}, as {@code NAME-cert.pub}
     * beside it; returns that file.
     */
    Path certify(Path publicKey, String user) throws IOException, InterruptedException {
        run(List.of("/usr/bin/ssh-keygen", "-q", "-s", dir.resolve("user_ca").toString(), "-I", "sperli-test",
                "-n", user, "-V", "-5m:+1h", publicKey.toString()));
        String name = publicKey.getFileName().toString();
        return publicKey.resolveSibling(name.substring(0, name.length() - ".pub".length()) + "-cert.pub");
    }

    private static void keygen(Path key) throws IOException, InterruptedException {
        keygen(key, "");
    }

    private static void keygen(Path key, String passphrase) throws IOException, InterruptedException {
        run(List.of("/usr/bin/ssh-keygen", "-q", "-t", "ed25519", "-N", passphrase, "-C", "sperli-test", "-f",
                key.toString()));
    }

    static void run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException(command.get(0) + " failed: " + out);
        }
    }
}
