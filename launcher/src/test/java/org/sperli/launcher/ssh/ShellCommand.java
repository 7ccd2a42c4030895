package org.sperli.launcher.ssh;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.sshd.server.Environment;
import org.apache.sshd.server.ExitCallback;
import org.apache.sshd.server.Signal;
import org.apache.sshd.server.channel.ChannelSession;
import org.apache.sshd.server.command.Command;

/**
 * An exec request of the embedded server: {@code /bin/sh -c COMMAND} in the remote home, stdin, stdout and stderr
 * piped to the channel, the "signal" request TERM passed on as SIGTERM, and the process killed when the channel goes
 * (or, as OpenSSH does, left to find its standard input closed, when the server was made so). The process inherits
 * this JVM's environment, or, with a login environment, gets only {@code PATH} and what the client sent, as sshd
 * gives a command a fresh login environment and never its own.
 */
final class ShellCommand implements Command {
    /** The home's directory of programs, first on the PATH where it exists. */
    static final String BIN = "bin";
    private final String command;
    private final Path home;
    private final boolean killOnClose;
    private final boolean loginEnvironment;
    private final Consumer<Map<String, String>> sentEnvironments;
    private InputStream in;
    private OutputStream out;
    private OutputStream err;
    private ExitCallback exit;
    private Process process;

    ShellCommand(String command, Path home, boolean killOnClose, boolean loginEnvironment,
                 Consumer<Map<String, String>> sentEnvironments) {
        this.command = command;
        this.home = home;
        this.killOnClose = killOnClose;
        this.loginEnvironment = loginEnvironment;
        this.sentEnvironments = sentEnvironments;
    }

    @Override
    public void setInputStream(InputStream in) {
        this.in = in;
    }

    @Override
    public void setOutputStream(OutputStream out) {
        this.out = out;
    }

    @Override
    public void setErrorStream(OutputStream err) {
        this.err = err;
    }

    @Override
    public void setExitCallback(ExitCallback exit) {
        this.exit = exit;
    }

    @Override
    public void start(ChannelSession channel, Environment env) throws IOException {
        ProcessBuilder builder = new ProcessBuilder("/bin/sh", "-c", command).directory(home.toFile());
        builder.environment().remove("SPERLI_REFUSED_HOSTS");
        sentEnvironments.accept(Map.copyOf(env.getEnv()));
        if (loginEnvironment) {
            builder.environment().clear();
            builder.environment().put("PATH", "/usr/bin:/bin");
            builder.environment().putAll(env.getEnv());
        }
        // As a login shell's profile puts ~/bin first where it exists.
        if (Files.isDirectory(home.resolve(BIN))) {
            builder.environment().put("PATH", home.resolve(BIN) + ":" + builder.environment().getOrDefault("PATH", ""));
        }
        process = builder.start();
        env.addSignalListener((c, signal) -> process.toHandle().destroy(), Signal.TERM, Signal.INT);
        Thread input = pump("in", in, process.getOutputStream(), true);
        Thread output = pump("out", process.getInputStream(), out, false);
        Thread error = pump("err", process.getErrorStream(), err, false);
        Thread waiter = new Thread(() -> {
            try {
                int status = process.waitFor();
                output.join(5000);
                error.join(5000);
                input.interrupt();
                exit.onExit(status);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "ssh-test-exec-wait");
        waiter.setDaemon(true);
        waiter.start();
    }

    private static Thread pump(String name, InputStream from, OutputStream to, boolean closeTarget) {
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[8192];
            try {
                for (int n = from.read(buffer); n >= 0; n = from.read(buffer)) {
                    to.write(buffer, 0, n);
                    to.flush();
                }
            } catch (IOException e) {
                // The other side closed: nothing more to copy.
            } finally {
                if (closeTarget) {
                    try {
                        to.close();
                    } catch (IOException e) {
                        // Already closed.
                    }
                }
            }
        }, "ssh-test-exec-" + name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    @Override
    public void destroy(ChannelSession channel) {
        if (killOnClose && process != null && process.isAlive()) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
    }
}
