package org.sperli.testkit;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.sperli.Communicator;
import org.sperli.Restored;
import org.sperli.SperliException;
import org.sperli.jobspec.RankExit;
import org.sperli.jvm.Clock;
import org.sperli.protocol.payload.Abort;
import org.sperli.rankd.job.ProgramEnd;
import org.sperli.runtime.RankConfig;
import org.sperli.runtime.RankRuntime;
import org.sperli.trace.RankTrace;
import org.sperli.trace.TraceKind;
import org.sperli.trace.TracePart;

/**
 * One rank's life in one incarnation, on a thread of its own, in the order of a rank process (the rank daemon's
 * {@code org.sperli.rankd.RankLife} and {@code RankEnd}): the job jar opened (a refusal is status 2), the mesh and
 * any resume ({@link RankRuntime#connect}), the program, then ABORT when it threw while the job was whole, close (BYE
 * when nothing failed), and the end as {@link ProgramEnd} decides it. The kit may {@link #kill} the rank (as SIGKILL
 * would) or {@link #stop} it (as the launcher's SIGTERM would: ABORT reason 8).
 */
final class RankLife implements Runnable {
    private final int rank;
    private final long incarnation;
    private final RankConfig config;
    private final RankProgram.Source source;
    private final String[] args;
    private final RankSink sink;
    private final Faults.ForRank faults;
    private final RankTrace trace;
    private final List<String> log;
    private final CompletableFuture<RankResult> ended = new CompletableFuture<>();
    private volatile Thread thread;
    private volatile RankRuntime runtime;
    private volatile boolean killed;
    private volatile boolean stopped;
    private volatile String stopReason = "stopped by the test kit";

    /** {@code log} is where the configuration's runtime notes go (a synchronized list). */
    RankLife(int rank, long incarnation, RankConfig config, List<String> log, RankProgram.Source source,
             List<String> args, RankSink sink, Faults.ForRank faults, RankTrace traceOrNull) {
        this.log = log;
        this.trace = traceOrNull;
        this.rank = rank;
        this.incarnation = incarnation;
        this.config = config;
        this.source = source;
        this.args = args.toArray(String[]::new);
        this.sink = sink;
        this.faults = faults;
    }

    int rank() {
        return rank;
    }

    /** The rank's clock (its configuration's). */
    Clock clock() {
        return config.clock();
    }

    /** What the rank traced, or null when the run is not traced; once the rank ended. */
    TracePart tracePart() {
        return trace == null ? null : trace.part();
    }

    /** Completes with the rank's end once its thread is done with it. */
    CompletableFuture<RankResult> ended() {
        return ended;
    }

    /** Starts the rank's thread. */
    Thread start() {
        Thread t = new Thread(this, "sperli-rank-" + rank);
        t.setDaemon(true);
        thread = t;
        t.start();
        return t;
    }

    Thread thread() {
        return thread;
    }

    @Override
    public void run() {
        OutputRouting.bind(sink);
        RankResult result;
        try {
            result = live();
        } catch (RuntimeException | Error e) {
            result = result(false, null, null, new ProgramEnd(RankExit.INTERNAL_ERROR, "internal error in the test"
                    + " kit: " + ProgramEnd.summary(e), e), RankResult.Ending.JOB_FAILED, 0);
        } finally {
            OutputRouting.unbind();
        }
        ended.complete(result);
    }

    /**
     * Ends this rank now as SIGKILL ends a rank process: no BYE, no ABORT, its connections closed at once. Called on
     * the rank's own thread by a fault; the program is then unwound with {@link Killed}.
     */
    Killed kill() {
        if (trace != null) {
            trace.instant(TraceKind.KILLED, -1, -1);
        }
        killed = true;
        RankRuntime rt = runtime;
        if (rt != null) {
            rt.kill();
        }
        return new Killed(rank);
    }

    /**
     * Stops this rank as the launcher stops one that goes on after the job failed or past the time limit: ABORT
     * reason 8 to every connected peer, then an interrupt of its thread.
     */
    void stop(String why) {
        stopReason = why;
        stopped = true;
        RankRuntime rt = runtime;
        if (rt != null) {
            rt.abort(Abort.Reason.OPERATOR_STOP, "rank " + rank + " " + why, null);
        }
        Thread t = thread;
        if (t != null) {
            t.interrupt();
        }
    }

    private RankResult live() {
        RankProgram program;
        try {
            program = source.open(rank);
        } catch (SperliException e) {
            return result(false, null, null, new ProgramEnd(RankExit.REFUSED, e.getMessage(), e),
                    RankResult.Ending.JOB_FAILED, 0);
        }
        try (program) {
            RankRuntime rt;
            try {
                rt = RankRuntime.connect(config, phase -> { }, trace);
            } catch (SperliException e) {
                ProgramEnd end = stopped ? stoppedEnd() : ProgramEnd.of(e, null);
                return result(false, null, e, end, stopped ? RankResult.Ending.STOPPED
                        : RankResult.Ending.JOB_FAILED, 0);
            }
            runtime = rt;
            long resumed = rt.restored().map(Restored::epoch).orElse(0L);
            if (stopped) {
                rt.abort(Abort.Reason.OPERATOR_STOP, "rank " + rank + " " + stopReason, null);
            }
            Communicator comm = faults.wrap(rt.forProgram(), rt, this);
            long start = trace == null ? 0 : trace.now();
            Throwable thrown = program.run(comm, args);
            if (trace != null) {
                trace.span(TraceKind.RUN, start, -1, -1, -1, incarnation, thrown != null);
            }
            return ended(rt, thrown, resumed);
        }
    }

    /** After the program: as the rank daemon's end, and as a killed or stopped rank's. */
    private RankResult ended(RankRuntime rt, Throwable thrown, long resumed) {
        if (killed) {
            // kill() closed the connections and ended the event loop; a killed process closes nothing more.
            return result(true, null, null, new ProgramEnd(RankResult.KILLED_STATUS, null, null),
                    RankResult.Ending.KILLED, resumed);
        }
        if (stopped) {
            rt.close();
            return result(true, thrown, rt.failure(), stoppedEnd(), RankResult.Ending.STOPPED, resumed);
        }
        ExitTrap.ExitCalled exit = exitCalled(thrown);
        ProgramEnd end;
        if (exit != null) {
            String line = ProgramEnd.exitCalled("System.exit(" + exit.status() + ")", exit.caller());
            if (rt.failure() == null) {
                rt.abort(Abort.Reason.PROGRAM_FAILED, "rank " + rank + " " + line, exit);
            }
            end = new ProgramEnd(RankExit.PROGRAM_FAILED, line, exit);
        } else {
            if (thrown != null) {
                ProgramEnd.abortFor(rt, thrown);
            }
            end = null;
        }
        rt.close();
        SperliException failure = rt.failure();
        if (end == null) {
            end = ProgramEnd.of(failure, thrown);
        }
        RankResult.Ending ending = thrown != null ? RankResult.Ending.THREW
                : end.status() == RankExit.COMPLETED ? RankResult.Ending.COMPLETED : RankResult.Ending.JOB_FAILED;
        return result(true, thrown, failure, end, ending, resumed);
    }

    private ProgramEnd stoppedEnd() {
        return new ProgramEnd(RankExit.OPERATOR_STOP, stopReason + " (ABORT reason 8 to every connected peer)", null);
    }

    private RankResult result(boolean ran, Throwable thrown, SperliException failure, ProgramEnd end,
                              RankResult.Ending ending, long resumed) {
        sink.close();
        List<String> notes;
        synchronized (log) {
            notes = List.copyOf(log);
        }
        return new RankResult(rank, incarnation, sink.stdout(), sink.stderr(), notes, ran, thrown, failure,
                end.status(), end.lastLine(), ending, resumed);
    }

    private static ExitTrap.ExitCalled exitCalled(Throwable thrown) {
        for (Throwable t = thrown; t != null; t = t.getCause()) {
            if (t instanceof ExitTrap.ExitCalled exit) {
                return exit;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return null;
    }

    /** Unwinds a killed rank's program: its thread ends as the killed process would have. */
    static final class Killed extends Error {
        private static final long serialVersionUID = 1L;

        Killed(int rank) {
            super("rank " + rank + " was killed by the test kit");
        }
    }
}
