package org.sperli.launcher.job;

import java.util.concurrent.CompletableFuture;
import org.sperli.launcher.report.Console;

/**
 * What every {@link RankProcess} holds the same way, whatever carries the rank: its number, its stdout and stderr
 * turned into console lines, and the future of its exit status. The carriers (a child process, an SSH channel)
 * extend it with how they start, signal and end a rank.
 */
public abstract class RankOutputs implements RankProcess {
    private final int rank;
    private final RankOutput stdout;
    private final RankOutput stderr;
    private final CompletableFuture<Integer> exited = new CompletableFuture<>();

    protected RankOutputs(int rank, long incarnation, Console console) {
        this.rank = rank;
        this.stdout = new RankOutput(console, incarnation, rank, false);
        this.stderr = new RankOutput(console, incarnation, rank, true);
    }

    @Override
    public final int rank() {
        return rank;
    }

    @Override
    public final CompletableFuture<Integer> exited() {
        return exited;
    }

    @Override
    public final String lastStderrLine() {
        return stderr.lastLine();
    }

    /** Where the rank's standard output goes. */
    protected final RankOutput stdout() {
        return stdout;
    }

    /** Where the rank's standard error goes. */
    protected final RankOutput stderr() {
        return stderr;
    }

    /** The rank ended with {@code status}, its output through. */
    protected final void exitedWith(int status) {
        exited.complete(status);
    }
}
