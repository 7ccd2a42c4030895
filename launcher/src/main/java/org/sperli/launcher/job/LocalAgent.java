package org.sperli.launcher.job;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.sperli.launcher.report.Console;

/**
 * The host agent of this host's ranks, a child process of the launcher, run by the launcher's own Java from the
 * launcher's class path (which holds the rank daemon): local ranks start the same way as ranks on an SSH host. The
 * agent only starts and watches processes, so it runs with the client compiler and a small heap.
 */
public final class LocalAgent implements AgentChannel {
    /** How long the agent has to end its ranks after its input closed. */
    static final long HOST_AGENT_END_MS = 5000;

    private final Process process;

    private LocalAgent(Process process) {
        this.process = process;
    }

    /** Starts the agent for the local names {@code hosts}; its stderr lines go to {@code console}. */
    static LocalAgent start(List<String> hosts, Console console) throws IOException {
        Process process = new ProcessBuilder(argv(hosts)).start();
        AgentLines.pump(process.getErrorStream(), "localhost", console);
        return new LocalAgent(process);
    }

    static List<String> argv(List<String> hosts) {
        List<String> argv = new ArrayList<>(agentArgv());
        for (String host : hosts) {
            argv.add("--host");
            argv.add(host);
        }
        return argv;
    }

    /**
     * The agent's command line up to its mode word, without its hosts: the launcher's own Java and class path. Under
     * Slurm every node runs it (a shared file system, as mpirun assumes).
     */
    public static List<String> agentArgv() {
        List<String> argv = new ArrayList<>();
        argv.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        argv.addAll(RankJvmDefaults.AGENT_OPTIONS);
        argv.add("-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"));
        argv.addAll(List.of("-cp", System.getProperty("java.class.path"), RankCommand.RANKD_MAIN, "--host-agent"));
        return argv;
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
        return "local";
    }

    @Override
    public void close() {
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            // Gone already.
        }
        // The end of its input ends the agent's ranks within its grace; a kill would orphan them, so wait first.
        try {
            if (!process.waitFor(HOST_AGENT_END_MS, TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
