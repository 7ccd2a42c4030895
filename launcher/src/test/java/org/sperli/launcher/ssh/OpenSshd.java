package org.sperli.launcher.ssh;

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

    private final Process process;
    private final int port;
    private final Path log;
    private final boolean madePrivsepDir;

    private OpenSshd(Process process, int port, Path log, boolean madePrivsepDir) {
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
        Files.createDirectories(sshDir);
        keygen(dir.resolve("host_ed25519"));
        keygen(sshDir.resolve("id_ed25519"));
        Files.copy(sshDir.resolve("id_ed25519.pub"), dir.resolve("authorized_keys"));
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
        OpenSshd sshd = new OpenSshd(process, port, log, madePrivsepDir);
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

    private static void keygen(Path key) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(List.of("/usr/bin/ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C",
                "sperli-test", "-f", key.toString())).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("ssh-keygen failed: " + out);
        }
    }
}
