package org.sperli.launcher.slurm;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.sperli.launcher.job.AgentLines;
import org.sperli.launcher.job.LocalAgent;
import org.sperli.launcher.report.Console;

/**
 * The one {@code srun} step that starts a host agent on each node of the job. Its flags, and why:
 *
 * <ul>
 *   <li>{@code --nodes=K --ntasks=K --ntasks-per-node=1 --nodelist=...}: one agent per node, the job's nodes only;
 *       all three, because inside an allocation of more tasks than nodes srun inherits SLURM_NTASKS and would ignore a
 *       lone {@code --ntasks-per-node=1};</li>
 *   <li>{@code --input=none}: the agents read nothing from the launcher's terminal; their link is the call-home;</li>
 *   <li>{@code --mpi=none}: no PMI set-up, the ranks bootstrap themselves from their descriptions;</li>
 *   <li>{@code --cpu-bind=none}: an agent's ranks use the node's CPUs as the kernel schedules them, as over SSH;</li>
 *   <li>{@code --kill-on-bad-exit=0}: one node's agent dying must not make Slurm end the other nodes' agents, or the
 *       launcher could not move the lost node's ranks to them (Open MPI's prted takes 1: it does not restart);</li>
 *   <li>{@code --job-name}: a name of this launcher's own, by which it finds the step's id for the credentials.</li>
 * </ul>
 */
final class SrunStep {
    /** After SIGTERM, how long srun has to end its tasks (Slurm's KillWait is 30 s by default; srun's own wait). */
    static final Duration END_WAIT = Duration.ofSeconds(10);

    private final Process process;
    private final String name;

    private SrunStep(Process process, String name) {
        this.process = process;
        this.name = name;
    }

    static List<String> argv(List<String> nodes, String name, int port, String fingerprintHex, String nonceHex,
                             List<String> nodeHosts) {
        List<String> argv = new ArrayList<>(List.of("srun", "--nodes=" + nodes.size(), "--ntasks=" + nodes.size(),
                "--ntasks-per-node=1", "--nodelist=" + String.join(",", nodes), "--kill-on-bad-exit=0",
                "--input=none", "--mpi=none", "--cpu-bind=none", "--job-name=" + name));
        argv.addAll(LocalAgent.agentArgv());
        for (String nodeHost : nodeHosts) {
            argv.add("--node");
            argv.add(nodeHost);
        }
        argv.addAll(List.of("--call-home-port", Integer.toString(port), "--launcher-sha256", fingerprintHex,
                "--nonce", nonceHex));
        return argv;
    }

    /** Starts srun; what it and the agents say on stderr (and stdout, where agents say nothing) goes to the console. */
    static SrunStep start(List<String> argv, String name, Map<String, String> env, Console console)
            throws IOException {
        List<String> resolved = new ArrayList<>(argv);
        resolved.set(0, SlurmTools.program(argv.get(0), env));
        ProcessBuilder builder = new ProcessBuilder(resolved);
        builder.environment().putAll(SlurmTools.slurmVariables(env));
        Process process = builder.start();
        process.getOutputStream().close();
        AgentLines.pump(process.getErrorStream(), "srun", console);
        AgentLines.pump(process.getInputStream(), "srun", console);
        return new SrunStep(process, name);
    }

    String name() {
        return name;
    }

    boolean isAlive() {
        return process.isAlive();
    }

    Process process() {
        return process;
    }

    /**
     * Ends the step within a bound of the launcher's own: srun may hang when a step daemon died. SIGTERM first (srun
     * passes it to the tasks), then SIGKILL.
     */
    void end() {
        try {
            if (process.waitFor(2, TimeUnit.SECONDS)) {
                return;
            }
            process.destroy();
            if (!process.waitFor(END_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                process.waitFor(2, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
