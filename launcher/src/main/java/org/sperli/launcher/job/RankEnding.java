package org.sperli.launcher.job;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.sperli.launcher.report.Console;

/**
 * Ends the ranks of an incarnation. When one rank failed, the others first have up to {@link #SETTLE} to end by
 * themselves ({@link #settle}), as they do once its ABORT or its closed connections reach them, so that each reports
 * its own code (a checkpoint refused on every rank shows as such, not as ranks the launcher stopped). Then
 * ({@link #endAll}) SIGTERM to each rank still running (a rank turns it into ABORT reason 8), up to
 * {@link #TERMINATE_GRACE} for all of them to go, then a kill, then up to {@link #KILL_WAIT}; a rank whose host does
 * not answer within {@link #REACH_PROBE} (a host cut off the network) is said and not waited for.
 *
 * <p>Every wait reads the time from the clock given (the launcher's {@code Clock}).
 */
final class RankEnding {
    /** How long the other ranks have to end by themselves after one failed. */
    static final Duration SETTLE = Duration.ofSeconds(2);
    /** How long ranks have after SIGTERM before they are killed. */
    static final Duration TERMINATE_GRACE = Duration.ofSeconds(5);
    /** How long a rank's host gets to answer before the rank is taken as cut off and not waited for. */
    static final Duration REACH_PROBE = Duration.ofSeconds(2);
    /** How long killed ranks have to be gone. */
    static final Duration KILL_WAIT = Duration.ofSeconds(5);
    /**
     * How much longer than {@link #REACH_PROBE} the wait for a reach answer lasts: the answer completes by itself
     * within the probe's bound, but a rank kind of another making might never complete it.
     */
    static final Duration REACH_ANSWER_SLACK = Duration.ofSeconds(1);
    /** How often the settling looks at a stop request. */
    static final Duration POLL = Duration.ofMillis(100);

    private final Console console;
    private final LongSupplier nanoClock;
    private final Duration settle;
    private final Duration terminateGrace;
    private final Duration reachProbe;
    private final Duration killWait;

    /** Ends ranks with the bounds above. */
    RankEnding(Console console, LongSupplier nanoClock) {
        this(console, nanoClock, SETTLE, TERMINATE_GRACE, REACH_PROBE, KILL_WAIT);
    }

    /** Ends ranks with bounds of the caller's (tests, which cannot wait seconds). */
    RankEnding(Console console, LongSupplier nanoClock, Duration settle, Duration terminateGrace,
               Duration reachProbe, Duration killWait) {
        this.console = console;
        this.nanoClock = nanoClock;
        this.settle = settle;
        this.terminateGrace = terminateGrace;
        this.reachProbe = reachProbe;
        this.killWait = killWait;
    }

    /** Waits up to the settle bound ({@link #SETTLE} unless given) for every rank to end, or until a stop. */
    void settle(List<RankProcess> ranks, BooleanSupplier stopRequested) {
        long deadlineNs = nanoClock.getAsLong() + settle.toNanos();
        for (RankProcess p : ranks) {
            while (!stopRequested.getAsBoolean() && nanoClock.getAsLong() < deadlineNs) {
                long leftMs = TimeUnit.NANOSECONDS.toMillis(deadlineNs - nanoClock.getAsLong());
                try {
                    p.exited().get(Math.min(POLL.toMillis(), leftMs), TimeUnit.MILLISECONDS);
                    break;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                } catch (ExecutionException e) {
                    break;
                } catch (TimeoutException e) {
                    // look at the stop request, then wait on
                }
            }
        }
    }

    /**
     * SIGTERM to every rank still running, a bounded wait, then kill and another bounded wait. A rank whose host
     * stopped answering is not waited for: no signal reaches it, and the waits would only delay the restart.
     */
    void endAll(List<RankProcess> ranks) {
        List<RankProcess> alive = ranks.stream().filter(RankProcess::isAlive).toList();
        if (alive.isEmpty()) {
            return;
        }
        alive.forEach(RankProcess::terminate);
        List<RankProcess> reachable = reachable(alive);
        if (!waitGone(reachable, terminateGrace)) {
            for (RankProcess p : reachable) {
                if (p.isAlive()) {
                    console.detail("rank " + p.rank() + " (" + p.where() + ") still running after SIGTERM; killing it");
                    p.kill();
                }
            }
            if (!waitGone(reachable, killWait)) {
                for (RankProcess p : reachable) {
                    if (p.isAlive()) {
                        console.note("rank " + p.rank() + " (" + p.where() + ") did not end after a kill");
                    }
                }
            }
        }
    }

    /**
     * The ranks of {@code alive} that can still be ended; the others are said, killed as far as that goes, and left.
     * Every rank is asked at once (each answer completes by itself within {@link #REACH_PROBE}), so a dead host
     * costs one probe, not one per rank.
     */
    private List<RankProcess> reachable(List<RankProcess> alive) {
        List<CompletableFuture<Boolean>> answers = alive.stream().map(p -> p.reachable(reachProbe)).toList();
        List<RankProcess> reachable = new ArrayList<>();
        for (int i = 0; i < alive.size(); i++) {
            RankProcess p = alive.get(i);
            boolean answered;
            try {
                answered = answers.get(i).get(reachProbe.plus(REACH_ANSWER_SLACK).toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                answered = true;
            } catch (ExecutionException | TimeoutException e) {
                answered = false;
            }
            if (answered || !p.isAlive()) {
                reachable.add(p);
            } else {
                console.note("rank " + p.rank() + " (" + p.where() + ") cannot be reached to end it: its host does"
                        + " not answer; it is left behind");
                p.kill();
            }
        }
        return reachable;
    }

    /** Whether every rank of {@code ranks} is gone within {@code limit}. */
    private boolean waitGone(List<RankProcess> ranks, Duration limit) {
        long deadlineNs = nanoClock.getAsLong() + limit.toNanos();
        for (RankProcess p : ranks) {
            long leftNs = deadlineNs - nanoClock.getAsLong();
            try {
                p.exited().get(Math.max(0, leftNs), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            } catch (ExecutionException | TimeoutException e) {
                if (p.isAlive()) {
                    return false;
                }
            }
        }
        return true;
    }
}
