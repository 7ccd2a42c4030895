package org.sperli.launcher.ssh;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.sperli.launcher.exit.LauncherException;
import org.sperli.launcher.job.AgentChannel;
import org.sperli.launcher.report.Console;

/**
 * Logins through the operator's ssh program ({@link SshCommand}): no connection of the launcher's own, each probe, copy
 * and host agent a run of {@code WORDS HOST REMOTE-COMMAND} (with OpenSSH's {@code ControlMaster} one connection
 * after all). The program's exit status 255 is its own failure (OpenSSH's): a connection that could not be made makes
 * the host unreachable (its ranks move), any other (a refused key or host key) ends the start in one line with the
 * status and the program's last line on stderr.
 */
final class CommandLogins implements HostLogins {
    /** The exit status with which OpenSSH's ssh says that it failed itself, not the remote command. */
    static final int SSH_FAILED = 255;
    /**
     * A first login and its probe, as the built-in client's connect, login and command bounds together: a program
     * that asks for a password nobody types is given up on after it.
     */
    static final Duration LOGIN_TIMEOUT = SshTransport.CONNECT_TIMEOUT.plus(SshTransport.AUTH_TIMEOUT)
            .plus(SshTransport.COMMAND_TIMEOUT);
    /** What ssh's last line starts with when it could not reach the host at all. */
    private static final List<String> UNREACHABLE = List.of("ssh: connect to host ", "ssh: Could not resolve hostname",
            "kex_exchange_identification:", "Connection timed out during banner exchange", "Connection closed by ",
            "Connection reset by ");

    private final SshCommand command;
    private boolean programChecked;

    CommandLogins(SshCommand command) {
        this.command = command;
    }

    @Override
    public HostLogin connect(String host) {
        checkProgram();
        return new CommandLogin(host, LOGIN_TIMEOUT);
    }

    @Override
    public HostLogin reconnect(String host, Duration bound) {
        checkProgram();
        return new CommandLogin(host, bound.plus(SshTransport.COMMAND_TIMEOUT));
    }

    private synchronized void checkProgram() {
        if (!programChecked) {
            command.checkProgram(System.getenv("PATH"));
            programChecked = true;
        }
    }

    /** {@code ssh -G NAME} with the operator's words: the {@code hostname} that its configuration gives the name. */
    @Override
    public Optional<String> aliasHostName(String name) {
        try {
            CommandRun.Result result = CommandRun.run(command.withArguments("-G", name), null,
                    SshTransport.COMMAND_TIMEOUT);
            if (result.exitStatus() != 0) {
                return Optional.empty();
            }
            for (String line : result.out().split("\n")) {
                String[] parts = line.strip().split("\\s+", 2);
                if (parts.length == 2 && parts[0].equalsIgnoreCase("hostname")) {
                    return parts[1].equals(name) ? Optional.empty() : Optional.of(parts[1]);
                }
            }
        } catch (IOException e) {
            // Not an OpenSSH that knows -G: nothing more to say of the name.
        }
        return Optional.empty();
    }

    @Override
    public void close() {
        // Nothing of its own: each login ends its processes.
    }

    /** The program could not reach the host, or did not end within its bound: its ranks move. */
    static final class Unreachable extends IOException {
        private static final long serialVersionUID = 1L;

        Unreachable(String message) {
            super(message);
        }
    }

    /** One host: its probe and copies each a run of the program, its agent one that lasts. */
    final class CommandLogin implements HostLogin {
        private final String host;
        private final Duration runBound;
        private volatile boolean open = true;
        private volatile Process agent;

        CommandLogin(String host, Duration runBound) {
            this.host = host;
            this.runBound = runBound;
        }

        @Override
        public String describe() {
            return "reaching " + host + " through " + command.source() + ": " + command;
        }

        @Override
        public boolean isOpen() {
            return open;
        }

        /** Whether the host agent's program still runs (true before it started): the process is the connection. */
        @Override
        public CompletableFuture<Boolean> answersWithin(Duration bound) {
            Process p = agent;
            return CompletableFuture.completedFuture(open && (p == null || p.isAlive()));
        }

        @Override
        public RemoteShell shell() {
            return new CommandShell(this);
        }

        @Override
        public AgentChannel startAgent(String host, String commandLine, Console console) throws IOException {
            CommandAgent started = CommandAgent.start(host, command.argv(host, commandLine), console);
            agent = started.process();
            return started;
        }

        @Override
        public void closeNow() {
            open = false;
            Process p = agent;
            if (p != null) {
                p.destroyForcibly();
            }
        }

        @Override
        public void close() {
            open = false;
            Process p = agent;
            if (p != null && p.isAlive()) {
                CommandAgent.end(p);
            }
        }

        /** Runs {@code remoteCommand} on the host, {@code stdinOrNull}'s bytes its input, within {@code bound}. */
        CommandRun.Result run(String remoteCommand, java.nio.file.Path stdinOrNull, Duration bound)
                throws IOException {
            CommandRun.Result result;
            try {
                result = CommandRun.run(command.argv(host, remoteCommand), stdinOrNull, bound);
            } catch (CommandRun.TimedOut e) {
                open = false;
                throw new Unreachable(command.program() + " gave no answer within " + bound.toSeconds() + " s");
            }
            if (result.exitStatus() != SSH_FAILED) {
                return result;
            }
            String said = result.lastErrLine();
            if (UNREACHABLE.stream().anyMatch(said::startsWith)) {
                open = false;
                throw new Unreachable(said);
            }
            throw LauncherException.startFailed("SSH login to " + host + " through " + command.source()
                    + " failed: " + command.program() + " exited with status " + SSH_FAILED + ": "
                    + (said.isEmpty() ? "(nothing on stderr)" : RemoteRankd.printable(said)), null);
        }

        Duration runBound() {
            return runBound;
        }
    }
}
