package org.sperli.launcher.ssh;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;

/**
 * A real {@code ssh-agent} (Debian's openssh-client) on a socket of the test's, in the foreground as a child of the
 * test, stopped by its PID; {@link #add} loads a passphrase-protected key as {@code ssh-add} does for an operator,
 * the passphrase given by an askpass script instead of a terminal.
 */
final class SshAgentProcess implements AutoCloseable {
    static final Path SSH_AGENT = Path.of("/usr/bin/ssh-agent");
    static final Path SSH_ADD = Path.of("/usr/bin/ssh-add");

    private final Process process;
    private final Path socket;

    private SshAgentProcess(Process process, Path socket) {
        this.process = process;
        this.socket = socket;
    }

    static boolean available() {
        return Files.isExecutable(SSH_AGENT) && Files.isExecutable(SSH_ADD);
    }

    static SshAgentProcess start(Path dir) throws IOException, InterruptedException {
        Path socket = dir.resolve("agent.sock");
        Process process = new ProcessBuilder(SSH_AGENT.toString(), "-D", "-a", socket.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("agent.log").toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!Files.exists(socket)) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                process.destroyForcibly();
                throw new IOException("ssh-agent did not start: " + Files.readString(dir.resolve("agent.log")));
            }
            Thread.sleep(20);
        }
        return new SshAgentProcess(process, socket);
    }

    Path socket() {
        return socket;
    }

    /** {@code ssh-add KEY}, answering its passphrase prompt with {@code passphrase}. */
    void add(Path key, String passphrase, Path dir) throws IOException, InterruptedException {
        Path askpass = dir.resolve("askpass.sh");
        Files.writeString(askpass, "#!/bin/sh\necho '" + passphrase + "'\n", StandardCharsets.US_ASCII);
        Files.setPosixFilePermissions(askpass, PosixFilePermissions.fromString("rwx------"));
        ProcessBuilder add = new ProcessBuilder(SSH_ADD.toString(), key.toString()).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        add.environment().put("SSH_AUTH_SOCK", socket.toString());
        add.environment().put("SSH_ASKPASS", askpass.toString());
        add.environment().put("SSH_ASKPASS_REQUIRE", "force");
        add.environment().put("DISPLAY", ":0");
        Process p = add.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("ssh-add failed: " + out);
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
