package org.sperli.launcher.ssh;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.sperli.launcher.job.AgentChannel;
import org.sperli.launcher.job.AgentLines;
import org.sperli.launcher.report.Console;

/**
 * A host agent started through the operator's ssh program ({@code --ssh-command}): a local child process whose
 * standard input and output carry the control stream and whose standard error lines (the agent's own, and what ssh
 * says) go to the console. The agent's host counts as reachable while the process lives; when it ends (the connection
 * is gone) or its input closes, the agent reads the end of its input and ends its ranks.
 */
final class CommandAgent implements AgentChannel {
    /** How long the program has to end by itself once the agent's input closed, before it is ended. */
    static final Duration END_WAIT = Duration.ofSeconds(2);

    private final String host;
    private final Process process;

    private CommandAgent(String host, Process process) {
        this.host = host;
        this.process = process;
    }

    /** Starts {@code argv} (the program, its words, the host and the agent's command line). */
    static CommandAgent start(String host, List<String> argv, Console console) throws IOException {
        Process process = new ProcessBuilder(argv).start();
        AgentLines.pump(process.getErrorStream(), host, console);
        return new CommandAgent(host, process);
    }

    Process process() {
        return process;
    }

    @Override
    public InputStream fromAgent() {
        return process.getInputStream();
    }

    @Override
    public OutputStream toAgent() {
        return process.getOutputStream();
    }

    @Override
    public String where() {
        return "ssh " + host;
    }

    @Override
    public CompletableFuture<Boolean> reachable(Duration bound) {
        return CompletableFuture.completedFuture(process.isAlive());
    }

    @Override
    public void close() {
        end(process);
    }

    /**
     * Closes the program's input (ssh passes the end on: the agent ends its ranks), gives it {@link #END_WAIT} to end,
     * then ends it (ssh then closes the connection, which ends the agent's input all the same).
     */
    static void end(Process process) {
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            // Gone already.
        }
        try {
            if (!process.waitFor(END_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroy();
                if (!process.waitFor(1, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
