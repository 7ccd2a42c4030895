package org.sperli.rankd.agent;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongPredicate;
import org.sperli.SperliException;
import org.sperli.control.ControlFrame;
import org.sperli.control.ControlFrame.RankRef;
import org.sperli.control.ControlFrameReader;
import org.sperli.control.ControlFrames;
import org.sperli.control.ControlStreamException;
import org.sperli.jobspec.JobDescription;

/**
 * The host agent's life: READY, then the launcher's frames one after another until SHUTDOWN or the end of standard
 * input, then every rank ended (SIGTERM, SIGKILL after {@link #TERMINATE_GRACE_MS}), reported, and BYE. A frame that
 * cannot be read or a START that does not belong here ends it the same way with {@link #REFUSED}; the description is
 * never quoted. Exit statuses are documented in {@code docs/sperli-agent.md}.
 */
public final class HostAgent {
    /** Ended after SHUTDOWN or the end of the control stream. */
    public static final int ENDED = 0;
    /** The command line was refused. */
    public static final int USAGE = 2;
    /** The control stream was refused (a malformed frame, a START that does not belong to this agent). */
    public static final int REFUSED = 3;
    /** The control stream could not be written: the launcher no longer reads. */
    public static final int LAUNCHER_GONE = 4;
    /** How long ranks have after SIGTERM before the agent kills them. */
    static final long TERMINATE_GRACE_MS = 1000;
    /** How long killed ranks have to be reported. */
    static final long KILL_WAIT_MS = 1000;
    private static final String NAME = "sperli-rankd --host-agent";

    private final InputStream in;
    private final PrintStream err;
    private final Path tmpdir;
    private final LongPredicate alive;
    /** The latest child of each rank and incarnation, for SIGNAL and the duplicate check. */
    private final Map<RankRef, RankChild> children = new ConcurrentHashMap<>();
    /** Every child until it has ended (EXITED sent, directory removed): what the end of the agent waits for. */
    private final Set<RankChild> unfinished = ConcurrentHashMap.newKeySet();
    private FrameOutbox outbox;
    private AgentArguments arguments;
    private volatile AgentDirectory directory;

    HostAgent(InputStream in, PrintStream err, Path tmpdir, LongPredicate alive) {
        this.in = in;
        this.err = err;
        this.tmpdir = tmpdir;
        this.alive = alive;
    }

    /** Whether {@code args} ask for the agent rather than a rank. */
    public static boolean isAgent(String[] args) {
        return args.length > 0 && args[0].equals(AgentArguments.MODE);
    }

    /** The agent of this process: its standard streams, the system's temporary directory. */
    public static int runThisProcess(String[] args) {
        return runThisProcess(args, System.in, new java.io.FileOutputStream(java.io.FileDescriptor.out));
    }

    /**
     * Where this agent calls home, when its command line is the one of an agent under Slurm (section 9 of the
     * control-stream document); empty for any other, which {@link #runThisProcess} judges.
     */
    public static Optional<CallHomeTarget> callHomeTarget(String[] args, Map<String, String> env) {
        try {
            return Optional.ofNullable(AgentArguments.parse(Arrays.asList(args), env).callHomeOrNull());
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** The agent of this process with its control stream on {@code in} and {@code out} (a call-home connection). */
    public static int runThisProcess(String[] args, InputStream in, OutputStream out) {
        HostAgent agent = new HostAgent(in, System.err, Path.of(System.getProperty("java.io.tmpdir")),
                pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
        // A SIGTERM to the agent (the operator, Slurm) ends its ranks first; after a normal end there are none left.
        // Its directory goes too: scancel ends an agent under Slurm this way, and nothing may stay on the node.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            agent.endAll();
            agent.removeDirectory();
        }, "sperli-agent-stop"));
        return agent.run(Arrays.asList(args), out,
                () -> {
                    // The launcher is gone: nothing would read what the ranks say. End them, then the process.
                    agent.endAll();
                    agent.removeDirectory();
                    agent.err.flush();
                    Runtime.getRuntime().halt(LAUNCHER_GONE);
                });
    }

    /** Runs the agent to its end and returns its exit status; {@code onBroken} runs when {@code out} fails. */
    int run(List<String> args, OutputStream out, Runnable onBroken) {
        try {
            arguments = AgentArguments.parse(args, System.getenv());
        } catch (IllegalArgumentException e) {
            // One line, as docs/sperli-agent.md section 2 says: the launcher shows the agent's stderr line by line.
            err.println(NAME + ": command line refused: " + e.getMessage() + "; " + AgentArguments.USAGE);
            return USAGE;
        }
        try {
            directory = AgentDirectory.create(tmpdir, alive);
        } catch (IOException | UnsupportedOperationException e) {
            err.println(NAME + ": cannot make its directory in " + tmpdir + ": " + e.getMessage());
            return USAGE;
        }
        outbox = new FrameOutbox(new java.io.BufferedOutputStream(out, 64 * 1024), onBroken);
        int status = ENDED;
        try {
            outbox.ready(ProcessHandle.current().pid());
            status = serve(directory);
        } finally {
            endAll();
            if (status == ENDED) {
                // After a refusal the launcher gets the ranks' ends but no BYE: its stream did not end as agreed.
                outbox.bye();
            }
            outbox.close();
            removeDirectory();
            err.flush();
        }
        return outbox.broken() ? LAUNCHER_GONE : status;
    }

    /** Removes the agent's directory (every rank's is inside it): once its ranks have ended. */
    void removeDirectory() {
        AgentDirectory own = directory;
        if (own == null) {
            return;
        }
        try {
            own.close();
        } catch (IOException e) {
            err.println(NAME + ": cannot remove " + own.path() + ": " + e.getMessage());
        }
    }

    private int serve(AgentDirectory directory) {
        ControlFrameReader reader = new ControlFrameReader(in, true);
        while (true) {
            ControlFrame frame;
            try {
                frame = reader.next();
            } catch (ControlStreamException e) {
                return refuse(e.getMessage());
            } catch (IOException e) {
                err.println(NAME + ": its standard input failed (" + e.getMessage() + "); ending its ranks");
                return ENDED;
            }
            if (frame == null || frame instanceof ControlFrame.Shutdown) {
                return ENDED;
            }
            if (frame instanceof ControlFrame.Signal signal) {
                RankChild child = children.get(signal.ref());
                if (child != null) {
                    child.signal(signal.signal());
                }
            } else if (frame instanceof ControlFrame.Start start) {
                String refusal = startRefusal(start);
                if (refusal != null) {
                    start.wipe();
                    return refuse(refusal);
                }
                start(start, directory);
            }
        }
    }

    private int refuse(String what) {
        err.println(NAME + ": control stream refused: " + what + "; ending its ranks");
        return REFUSED;
    }

    /**
     * Why {@code start} does not belong to this agent (a START for another host, rank or incarnation, or one that
     * repeats a running rank), or null. The description is parsed as its rank will parse it.
     */
    private String startRefusal(ControlFrame.Start start) {
        RankRef ref = start.ref();
        RankChild earlier = children.get(ref);
        // Running until its EXITED is sent, not until its clean-up after that is through: a launcher may start the
        // rank again as soon as it has read the EXITED.
        if (earlier != null && !earlier.exitedSent()) {
            return "START for " + ref + ", which is running already";
        }
        byte[] description = start.description();
        byte[] line = Arrays.copyOf(description, description.length - 1);
        JobDescription parsed;
        try {
            parsed = JobDescription.parseLine(line);
        } catch (SperliException e) {
            return "START for " + ref + ": its description is refused: " + e.getMessage();
        } finally {
            Arrays.fill(line, (byte) 0);
        }
        try {
            if (parsed.rank() != ref.rank() || parsed.incarnation() != ref.incarnation()) {
                return "START for " + ref + " carries the description of rank " + parsed.rank() + " (incarnation "
                        + parsed.incarnation() + ")";
            }
            String host = parsed.ownHost().host().toLowerCase(Locale.ROOT);
            if (!arguments.hosts().contains(host)) {
                return "START for " + ref + " is for host " + host + ", not one of this agent's "
                        + arguments.hosts();
            }
            return null;
        } finally {
            parsed.destroySecrets();
        }
    }

    private void start(ControlFrame.Start start, AgentDirectory directory) {
        RankRef ref = start.ref();
        Path rankDirectory = null;
        try {
            rankDirectory = directory.rankDirectory(ref);
            RankChild child = RankChild.start(start, rankDirectory, outbox);
            children.put(ref, child);
            unfinished.add(child);
            child.ended().thenRun(() -> {
                children.remove(ref, child);
                unfinished.remove(child);
            });
        } catch (IOException | RuntimeException e) {
            start.wipe();
            if (rankDirectory != null) {
                AgentDirectory.remove(rankDirectory);
            }
            outbox.failed(ref, "cannot start " + start.argv().get(0) + ": " + e.getMessage());
        }
    }

    /** SIGTERM to every rank, SIGKILL to those left after the grace, and a bounded wait for their reports. */
    synchronized void endAll() {
        List<RankChild> running = new ArrayList<>(unfinished);
        if (running.isEmpty()) {
            return;
        }
        running.forEach(c -> c.signal(ControlFrames.SIGTERM));
        if (!awaitEnded(running, TERMINATE_GRACE_MS)) {
            running.stream().filter(RankChild::isAlive).forEach(c -> c.signal(ControlFrames.SIGKILL));
            if (!awaitEnded(running, KILL_WAIT_MS + RankChild.OUTPUT_DRAIN_MS)) {
                err.println(NAME + ": ranks still not ended after a kill: " + running.stream()
                        .filter(c -> !c.ended().isDone()).map(RankChild::toString).toList());
            }
        }
    }

    private static boolean awaitEnded(List<RankChild> ranks, long ms) {
        CompletableFuture<Void> all = CompletableFuture.allOf(ranks.stream().map(RankChild::ended)
                .toArray(CompletableFuture[]::new));
        try {
            all.get(ms, TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException | ExecutionException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
