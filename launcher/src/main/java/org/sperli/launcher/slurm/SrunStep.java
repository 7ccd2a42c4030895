package org.sperli.launcher.slurm;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
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
    /** The longest srun line passed on; the rest of a longer one is cut. */
    static final int MAX_LINE = 1000;

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
    static SrunStep start(List<String> argv, String name, Map<String, String> env, Console console,
                          Runnable onCancelled) throws IOException {
        List<String> resolved = new ArrayList<>(argv);
        resolved.set(0, SlurmTools.program(argv.get(0), env));
        ProcessBuilder builder = new ProcessBuilder(resolved);
        builder.environment().putAll(SlurmTools.slurmVariables(env));
        Process process = builder.start();
        process.getOutputStream().close();
        pumpWatchingForCancel(process.getErrorStream(), console, onCancelled);
        AgentLines.pump(process.getInputStream(), "srun", console);
        return new SrunStep(process, name);
    }

    /**
     * Passes srun's lines (its own and the agents' standard error) to the console, and runs {@code onCancelled} when
     * Slurm says that the step or the job was cancelled (scancel, the allocation revoked, a time limit): that is the
     * operator's stop, as SIGTERM to the launcher is, not a failure to restart from. A node failure is not a stop.
     */
    private static void pumpWatchingForCancel(InputStream stderr, Console console, Runnable onCancelled) {
        Thread t = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(stderr, StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    if (line.isBlank()) {
                        continue;
                    }
                    if (isCancel(line)) {
                        onCancelled.run();
                    }
                    console.note("srun: " + (line.length() > MAX_LINE ? line.substring(0, MAX_LINE) + "..." : line));
                }
            } catch (IOException e) {
                // srun is gone; its end says the rest.
            }
        }, "sperli-srun-stderr");
        t.setDaemon(true);
        t.start();
    }

    /** slurmstepd's {@code *** STEP 17.0 ON n1 CANCELLED AT ... ***} (or JOB), unless due to a node failure. */
    static boolean isCancel(String line) {
        return line.contains("***") && line.contains(" CANCELLED AT ") && !line.contains("NODE FAILURE");
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
