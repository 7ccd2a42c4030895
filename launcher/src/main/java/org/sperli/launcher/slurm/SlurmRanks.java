package org.sperli.launcher.slurm;

import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import javax.net.ssl.SSLSocket;
import org.sperli.identity.CallHomeTls;
import org.sperli.jobspec.DescriptionLine;
import org.sperli.jobspec.JobDescription.HostEntry;
import org.sperli.jobspec.RefusedHostPolicy;
import org.sperli.jvm.Clock;
import org.sperli.launcher.exit.LauncherException;
import org.sperli.launcher.job.AgentLink;
import org.sperli.launcher.job.HostUnreachableException;
import org.sperli.launcher.job.JobJar;
import org.sperli.launcher.job.RankCommand;
import org.sperli.launcher.job.RankProcess;
import org.sperli.launcher.job.RankStarter;
import org.sperli.launcher.report.Console;

/**
 * Starts ranks inside a Slurm allocation: one srun step runs a host agent on each node of the job ({@link SrunStep}),
 * each agent calls home ({@link CallHomeServer}), and the node's ranks go to it over that connection as over an SSH
 * channel. Ranks run the launcher's rank command from the launcher's Java and class path (a shared file system, as
 * mpirun assumes). A node whose agent is gone is unreachable: its ranks move to the other nodes.
 */
public final class SlurmRanks implements RankStarter, AutoCloseable {
    /** How long the agents have, from srun's start, to call home: a JVM start on each node and a handshake. */
    public static final Duration CALL_HOME_BOUND = Duration.ofSeconds(60);

    private final SlurmAllocation allocation;
    private final List<SlurmAllocation.Node> jobNodes;
    private final RankCommand command;
    private final JobJar jar;
    private final List<String> jobArgs;
    private final Path denyFileOrNull;
    private final Map<String, String> environment;
    private final Console console;
    private final Clock clock;
    private final Map<String, AgentLink> links = new HashMap<>();
    private CallHomeServer server;
    private SrunStep step;
    private boolean closed;
    /** What ends the job as the operator's stop when Slurm cancels it ({@link #onCancelled}). */
    private volatile Runnable stop = () -> { };

    public SlurmRanks(SlurmAllocation allocation, List<SlurmAllocation.Node> jobNodes, RankCommand command, JobJar jar,
                      List<String> jobArgs, Path denyFileOrNull, Map<String, String> environment, Console console,
                      Clock clock) {
        this.allocation = allocation;
        this.jobNodes = List.copyOf(jobNodes);
        this.command = command;
        this.jar = jar;
        this.jobArgs = List.copyOf(jobArgs);
        this.denyFileOrNull = denyFileOrNull;
        this.environment = environment;
        this.console = console;
        this.clock = clock;
    }

    /**
     * MUNGE must work here before anything starts: without it no agent can prove who it is.
     *
     * @throws LauncherException of exit status 2 naming {@code --launcher ssh}
     */
    public static void requireMunge(Map<String, String> env) {
        if (!SlurmTools.mungeWorks(env)) {
            throw LauncherException.usage("--launcher slurm: MUNGE does not work here (munge -n | unmunge failed),"
                    + " so no host agent could prove who it is; use --launcher ssh");
        }
    }

    /**
     * {@code stopJob} runs when Slurm cancels the agents' step or the job (scancel, a revoked allocation): the launcher
     * then stops the job as on SIGTERM, so that it ends as stopped (exit status 143), not as failed ranks.
     */
    public void onCancelled(Runnable stopJob) {
        this.stop = stopJob;
    }

    @Override
    public void prepare(String host, List<Integer> ports) throws HostUnreachableException {
        SlurmAllocation.Node node = allocation.nodeAt(host);
        if (node == null) {
            throw LauncherException.startFailed(host + " is no node of Slurm job " + allocation.jobId(), null);
        }
        CallHomeServer calls;
        synchronized (this) {
            AgentLink link = links.get(node.name());
            if (link != null) {
                if (link.isOpen()) {
                    return;
                }
                throw new HostUnreachableException(host, "the host agent on Slurm node " + node.name() + " is gone",
                        null);
            }
            calls = ensureStep();
        }
        Optional<SSLSocket> socket;
        try {
            socket = calls.await(node.name(), CALL_HOME_BOUND);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw LauncherException.startFailed("interrupted while waiting for node " + node.name(), e);
        }
        if (socket.isEmpty()) {
            throw new HostUnreachableException(host, "no host agent of Slurm node " + node.name()
                    + " called home within " + CALL_HOME_BOUND.toSeconds() + " s", null);
        }
        AgentLink link;
        try {
            link = AgentLink.open(new SocketAgent(node.name(), socket.get()), host, console);
        } catch (IOException e) {
            throw new HostUnreachableException(host, e.getMessage(), e);
        }
        synchronized (this) {
            if (closed) {
                link.close();
                return;
            }
            links.put(node.name(), link);
        }
    }

    /** The call-home server and the srun step, started on the first call. */
    private CallHomeServer ensureStep() {
        if (server != null) {
            return server;
        }
        SecureRandom random = new SecureRandom();
        byte[] nonce = new byte[32];
        random.nextBytes(nonce);
        String nonceHex = HexFormat.of().formatHex(nonce);
        String name = "sperli-agents-" + nonceHex.substring(0, 12);
        AtomicReference<String> stepId = new AtomicReference<>();
        CallHomeServer.Expect expect = new CallHomeServer.Expect(allocation.jobId(),
                () -> stepId.updateAndGet(known -> known != null ? known
                        : SlurmTools.stepId(allocation.jobId(), name, environment).orElse(null)),
                nonceHex, jobNodes.stream().map(SlurmAllocation.Node::name).collect(Collectors.toSet()),
                new CallHomeCheck(ProcessIds.uid(), ProcessIds.gid()));
        try {
            server = CallHomeServer.start(CallHomeTls.create("sperli-launcher " + allocation.jobId(),
                    clock.instant(), random), expect, new Unmunge(SlurmTools.program("unmunge", environment)),
                    console::note);
            List<String> nodeHosts = new ArrayList<>();
            for (SlurmAllocation.Node n : jobNodes) {
                nodeHosts.add(n.name() + "=" + n.address());
            }
            List<String> argv = SrunStep.argv(jobNodes.stream().map(SlurmAllocation.Node::name).toList(), name,
                    server.port(), server.fingerprintHex(), nonceHex, nodeHosts);
            console.detail("one srun step starts the host agents: " + String.join(" ", argv));
            step = SrunStep.start(argv, name, environment, console, () -> stop.run());
        } catch (IOException e) {
            throw LauncherException.startFailed("cannot start the host agents with srun: " + e.getMessage(), e);
        }
        CallHomeServer calls = server;
        step.process().onExit().thenRun(() -> calls.failPending("srun ended"));
        return server;
    }

    @Override
    public RankProcess start(int rank, long incarnation, HostEntry entry, DescriptionLine line) throws IOException {
        SlurmAllocation.Node node = allocation.nodeAt(entry.host());
        AgentLink link;
        synchronized (this) {
            link = node == null ? null : links.get(node.name());
        }
        if (link == null || !link.isOpen()) {
            throw new IOException("no host agent runs on " + entry.host());
        }
        List<String> env = new ArrayList<>();
        String refused = environment.get(RefusedHostPolicy.ENV_VARIABLE);
        env.add(refused == null ? RefusedHostPolicy.ENV_VARIABLE : RefusedHostPolicy.ENV_VARIABLE + "=" + refused);
        command.exports().variables().forEach((name, value) -> env.add(name + "=" + value));
        console.detail("rank " + rank + " on Slurm node " + node.name());
        return link.start(rank, incarnation, command.localArgv(rank, denyFileOrNull, jar, jobArgs), env, line);
    }

    /** SHUTDOWN to every agent at once, then the call-home closed and srun ended within its bound. */
    @Override
    public void close() {
        List<AgentLink> open;
        synchronized (this) {
            closed = true;
            open = List.copyOf(links.values());
            links.clear();
        }
        open.stream().map(link -> CompletableFuture.runAsync(link::close)).toList()
                .forEach(CompletableFuture::join);
        if (server != null) {
            server.close();
        }
        if (step != null) {
            step.end();
        }
    }
}
