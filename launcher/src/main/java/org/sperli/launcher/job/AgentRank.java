package org.sperli.launcher.job;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.sperli.control.ControlFrames;
import org.sperli.launcher.report.Console;

/**
 * A rank that a host agent started: its output and exit status arrive as frames of the agent's control stream
 * ({@link AgentLink}), its signals leave as frames.
 */
final class AgentRank extends RankOutputs {
    private final AgentLink link;
    private final long incarnation;
    private volatile long pid = -1;

    AgentRank(int rank, long incarnation, AgentLink link, Console console) {
        super(rank, incarnation, console);
        this.link = link;
        this.incarnation = incarnation;
    }

    void started(long processId) {
        this.pid = processId;
    }

    /** Bytes the rank wrote to its stdout ({@code stream} 1) or stderr (2). */
    void output(int stream, byte[] data) {
        (stream == ControlFrames.STDOUT ? stdout() : stderr()).write(data, 0, data.length);
    }

    /** The rank ended with {@code status}; whatever of a line is left is passed on first. */
    void ended(int status) {
        stdout().close();
        stderr().close();
        exitedWith(status);
    }

    /** The agent could not start the rank: said as its last line, with the status of a command not found. */
    void failed(String reason) {
        byte[] line = ("the host agent could not start it: " + reason).getBytes(StandardCharsets.UTF_8);
        stderr().write(line, 0, line.length);
        ended(RankStatus.SHELL_NOT_FOUND);
    }

    @Override
    public String where() {
        long p = pid;
        return link.where() + (p > 0 ? " pid " + p : "");
    }

    @Override
    public void terminate() {
        link.signal(this, ControlFrames.SIGTERM);
    }

    @Override
    public void kill() {
        link.signal(this, ControlFrames.SIGKILL);
    }

    @Override
    public CompletableFuture<Boolean> reachable(Duration bound) {
        return link.reachable(bound);
    }

    long incarnation() {
        return incarnation;
    }
}
