package org.sperli.launcher.job;

import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.sperli.control.ControlFrame;
import org.sperli.control.ControlFrame.RankRef;
import org.sperli.control.ControlFrameReader;
import org.sperli.control.ControlFrames;
import org.sperli.jobspec.DescriptionLine;
import org.sperli.launcher.report.Console;

/**
 * The launcher's end of one host agent's control stream ({@code docs/sperli-agent.md}): it sends START, SIGNAL and
 * SHUTDOWN, and one reader thread passes the agent's frames to the ranks they name. The link serves every incarnation
 * of the job on its host, so a restart needs no new login. When the stream ends without BYE (the agent died, the
 * connection was cut), every rank the link still knows is lost ({@link RankProcess#LOST}).
 */
public final class AgentLink implements AutoCloseable {
    /** How long a new agent has to say READY. */
    public static final Duration READY_TIMEOUT = Duration.ofSeconds(30);
    /** How long an agent has to end its ranks and say BYE after SHUTDOWN. */
    public static final Duration SHUTDOWN_WAIT = Duration.ofSeconds(5);

    private final AgentChannel channel;
    private final String host;
    private final Console console;
    private final Map<RankRef, AgentRank> ranks = new ConcurrentHashMap<>();
    private final CompletableFuture<Long> ready = new CompletableFuture<>();
    private final CompletableFuture<Void> closed = new CompletableFuture<>();

    private AgentLink(AgentChannel channel, String host, Console console) {
        this.channel = channel;
        this.host = host;
        this.console = console;
    }

    /**
     * Reads {@code channel}'s frames from now on and waits for the agent's READY.
     *
     * @throws IOException when the agent does not say READY within {@link #READY_TIMEOUT} (the channel is closed)
     */
    public static AgentLink open(AgentChannel channel, String host, Console console) throws IOException {
        AgentLink link = new AgentLink(channel, host, console);
        Thread reader = new Thread(link::readLoop, "sperli-agent-link-" + host);
        reader.setDaemon(true);
        reader.start();
        try {
            long pid = link.ready.get(READY_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            console.detail("host agent on " + host + " ready (" + channel.where() + " pid " + pid + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            channel.close();
            throw new IOException("interrupted while the host agent on " + host + " started", e);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            channel.close();
            throw new IOException("the host agent on " + host + " did not start: " + (e.getCause() != null
                    ? e.getCause().getMessage() : "no READY within " + READY_TIMEOUT.toSeconds() + " s"), e);
        }
        return link;
    }

    /** Whether the stream is still up. */
    public boolean isOpen() {
        return !closed.isDone();
    }

    /**
     * Asks the agent to start rank {@code rank} of {@code incarnation}: {@code argv} with {@code env} changes, the
     * description on its stdin. Returns at once; the rank's STARTED, output and end arrive on the reader thread.
     */
    public RankProcess start(int rank, long incarnation, List<String> argv, List<String> env, DescriptionLine line)
            throws IOException {
        if (!isOpen()) {
            throw new IOException("the host agent on " + host + " is gone");
        }
        AgentRank p = new AgentRank(rank, incarnation, this, console);
        RankRef ref = new RankRef(rank, incarnation);
        ranks.put(ref, p);
        try {
            synchronized (this) {
                OutputStream out = channel.toAgent();
                ControlFrames.writeStart(out, rank, incarnation, argv, env, line);
                out.flush();
            }
        } catch (IOException e) {
            ranks.remove(ref);
            throw new IOException("the host agent on " + host + " cannot be told: " + e.getMessage(), e);
        }
        return p;
    }

    void signal(AgentRank p, int signal) {
        if (!p.isAlive() || !isOpen()) {
            return;
        }
        try {
            synchronized (this) {
                OutputStream out = channel.toAgent();
                ControlFrames.writeSignal(out, p.rank(), p.incarnation(), signal);
                out.flush();
            }
        } catch (IOException e) {
            // The stream is going: its end makes the agent end every rank anyway.
        }
    }

    CompletableFuture<Boolean> reachable(Duration bound) {
        return isOpen() ? channel.reachable(bound) : CompletableFuture.completedFuture(true);
    }

    String where() {
        return channel.where();
    }

    /**
     * SHUTDOWN, a wait for BYE or the stream's end (at most {@link #SHUTDOWN_WAIT}), then the channel closed: every
     * rank of the agent has ended by then, or ends with the agent's input.
     */
    @Override
    public void close() {
        if (isOpen()) {
            try {
                synchronized (this) {
                    OutputStream out = channel.toAgent();
                    ControlFrames.writeShutdown(out);
                    out.flush();
                }
                closed.get(SHUTDOWN_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (IOException | java.util.concurrent.ExecutionException
                     | java.util.concurrent.TimeoutException e) {
                // Closing the channel below ends the agent's input, which ends its ranks.
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        channel.close();
    }

    private void readLoop() {
        ControlFrameReader reader = new ControlFrameReader(channel.fromAgent(), false);
        String why = "its stream ended without BYE";
        try {
            ControlFrame frame;
            while ((frame = reader.next()) != null) {
                if (!dispatch(frame)) {
                    why = null;
                    break;
                }
            }
        } catch (IOException e) {
            why = "its stream failed: " + e.getMessage();
        } finally {
            ready.completeExceptionally(new IOException(why == null ? "it said BYE first" : why));
            List<AgentRank> lost = List.copyOf(ranks.values());
            ranks.clear();
            // Closed before the ranks' ends are told: whoever acts on them (a restart that starts ranks on this host)
            // must find this link closed and start a new agent, not write to the one that is gone.
            closed.complete(null);
            if (why != null && !lost.isEmpty()) {
                console.note("host agent on " + host + " lost (" + why + "); its ranks are lost with it");
            }
            for (AgentRank p : lost) {
                p.ended(RankProcess.LOST);
            }
        }
    }

    /** Passes one frame on; false after BYE. */
    private boolean dispatch(ControlFrame frame) {
        if (frame instanceof ControlFrame.Ready r) {
            ready.complete(r.pid());
        } else if (frame instanceof ControlFrame.Started s) {
            AgentRank p = ranks.get(s.ref());
            if (p != null) {
                p.started(s.pid());
            }
        } else if (frame instanceof ControlFrame.Output o) {
            AgentRank p = ranks.get(o.ref());
            if (p != null) {
                p.output(o.stream(), o.data());
            }
        } else if (frame instanceof ControlFrame.Exited x) {
            AgentRank p = ranks.remove(x.ref());
            if (p != null) {
                p.ended(x.status());
            }
        } else if (frame instanceof ControlFrame.Failed f) {
            AgentRank p = ranks.remove(f.ref());
            if (p != null) {
                p.failed(f.reason());
            }
        } else if (frame instanceof ControlFrame.Bye) {
            return false;
        }
        return true;
    }
}
