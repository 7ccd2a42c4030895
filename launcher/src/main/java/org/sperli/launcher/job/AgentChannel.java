package org.sperli.launcher.job;

import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * What carries one host agent's control stream: a local child process, or one SSH exec channel
 * (org.sperli.launcher.ssh). The agent's own diagnostic lines (its stderr) are the carrier's to pass to the console.
 */
public interface AgentChannel {
    /** The agent's standard output: frames from the agent. */
    InputStream fromAgent();

    /** The agent's standard input: frames to the agent. */
    OutputStream toAgent();

    /** For messages: {@code local} or {@code ssh node01}. */
    String where();

    /**
     * Whether the agent's host still answers, known at the latest after {@code bound}: a local agent always, an SSH
     * one while its session answers.
     */
    default CompletableFuture<Boolean> reachable(Duration bound) {
        return CompletableFuture.completedFuture(true);
    }

    /**
     * Ends the carrier at once (kills the local process, closes the channel): the agent reads the end of its input
     * and ends its ranks.
     */
    void close();
}
