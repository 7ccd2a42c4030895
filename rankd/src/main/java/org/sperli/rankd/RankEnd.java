package org.sperli.rankd;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import org.sperli.SperliException;
import org.sperli.identity.JobDescriptionValidator.ValidatedDescription;
import org.sperli.jobspec.RankExit;
import org.sperli.protocol.payload.Abort;
import org.sperli.rankd.job.ProgramEnd;
import org.sperli.runtime.RankRuntime;
import org.sperli.trace.RankTrace;

/**
 * The end of a rank's life, which two threads may reach: the main thread once its life is over ({@link #finish}),
 * and at any moment the operator's stop (SIGTERM, Ctrl-C: {@link #stopByOperator} on a shutdown hook) or the end of
 * the launcher ({@link #launcherGone}). The first of them decides the status and says the last line; the other says
 * nothing. What the rank decided before a stop came stays decided: the main thread's outcome is recorded as soon as it
 * is known ({@link #decided}), or read from the job's failure while the program runs, and the stop ends with that.
 *
 * <p>What a stop must see or undo is kept here, under the end lock: the runtime once connected (for its ABORT to every
 * peer), what the program threw, the PEM directory, which whoever ends removes, and the rank's trace
 * ({@code --trace}), which whoever ends hands to the launcher before the last line. {@link RankLife} tells it each as
 * it happens.
 */
final class RankEnd {
    private final Object lock = new Object();
    private final InputStream stdin;
    private final PrintStream stdout;
    private final Report report;
    private final ProcessEnd processEnd;

    private boolean ended;
    private int endStatus;
    /** The main thread's outcome once known, before it reached {@link #finish}; guarded by the end lock. */
    private Outcome decided;
    private volatile RankRuntime runtime;
    /** What the program threw, once its {@code run} has returned or thrown; null until then and when it returned. */
    private volatile Throwable programThrew;
    private volatile PemDirectory pems;
    /** The rank's trace ({@code --trace}) until it is handed to the launcher; null when not traced. */
    private volatile RankTrace trace;
    private volatile int rank = -1;

    /** The end of a life reading {@code stdin}, writing {@code stdout} and {@code report}, ending by {@code end}. */
    RankEnd(InputStream stdin, PrintStream stdout, Report report, ProcessEnd end) {
        this.stdin = stdin;
        this.stdout = stdout;
        this.report = report;
        this.processEnd = end;
    }

    /** The rank is known (its description passed the checks): the stop's ABORT names it. */
    void rank(int rank) {
        this.rank = rank;
    }

    /** The rank is connected: a stop from now on sends ABORT on {@code connected}'s connections. */
    void connected(RankRuntime connected) {
        runtime = connected;
    }

    /** The rank is traced into {@code traceOrNull} (null: not traced), to be handed over at its end. */
    void traced(RankTrace traceOrNull) {
        trace = traceOrNull;
    }

    /** The program's {@code run} is over; {@code thrownOrNull} is what it threw. */
    void programEnded(Throwable thrownOrNull) {
        programThrew = thrownOrNull;
    }

    /**
     * Records {@code outcome} as the main thread's decision, unless the operator's stop ended the life first: a stop
     * that comes later (the launcher ends the job when a rank failed, maybe this one) must not turn it into 8.
     */
    Outcome decided(Outcome outcome) {
        synchronized (lock) {
            if (!ended) {
                decided = outcome;
            }
        }
        return outcome;
    }

    /**
     * Writes the PEM directory and returns it, unless the operator's stop (or the launcher's end) came first; null
     * then. Under the end lock, so that a stop sees either no directory or one it can remove: a stop between the
     * directory's creation and its assignment would halt the process and leave the keys on disk.
     */
    PemDirectory writePems(ValidatedDescription validated) throws IOException {
        synchronized (lock) {
            if (ended) {
                return null;
            }
            pems = PemDirectory.write(validated.description());
            return pems;
        }
    }

    /** Removes the PEM directory, if there is one; a failure is said, not fatal. */
    void removePems() {
        PemDirectory directory = pems;
        if (directory == null) {
            return;
        }
        try {
            directory.close();
        } catch (IOException e) {
            report.note("warning: the PEM directory " + directory.path() + " could not be removed: " + e.getMessage());
        }
    }

    /**
     * Runs {@code action} unless the operator's stop has begun (false then), under the end lock, so that the stop
     * cannot begin between the look and the action: a phase line must not follow the stop's last line.
     */
    boolean unlessStopped(Runnable action) {
        synchronized (lock) {
            if (ended) {
                return false;
            }
            action.run();
            return true;
        }
    }

    /** Whether the operator's stop has begun; while it runs this blocks, and in a real process it never returns. */
    boolean stopping() {
        synchronized (lock) {
            return ended;
        }
    }

    /** The main thread's end: says the last line unless the operator's stop came first (false then). */
    boolean finish(Outcome outcome) {
        synchronized (lock) {
            if (ended) {
                return false;
            }
            ended = true;
            endStatus = outcome.status();
            handTraceOver();
            report.trace(outcome.cause(), outcome.alwaysTrace());
            if (outcome.lastLine() != null) {
                report.lastLine(outcome.lastLine());
            }
            stdout.flush();
            return true;
        }
    }

    /**
     * Flushes the streams and exits with {@code status}, the status {@link #finish} decided: the shutdown hook halts
     * with that same status, whichever shutdown runs it.
     */
    void exit(int status) {
        stdout.flush();
        report.flush();
        closeQuietly(stdin);
        processEnd.exit(status);
    }

    /**
     * The operator's stop, on the shutdown hook thread. Once the main thread ended, the process halts with its status,
     * also when the main thread's own exit is under way: a SIGTERM's shutdown can win the race with that exit, and the
     * JVM would then end with 143, a status no rank has (protocol section 11). When the rank decided its outcome
     * before the stop came ({@link #endAsDecided}), it ends with that. Otherwise: ABORT reason 8 on every connection
     * (when connected), the PEM directory removed, the last line, and the process halts with 8; but when the program
     * called {@code System.exit} ({@link ExitCall}), the same end as the program's failure, reason 7 and status 3.
     */
    void stopByOperator() {
        synchronized (lock) {
            if (ended) {
                halt(endStatus);
                return;
            }
            if (endAsDecided()) {
                return;
            }
            StackTraceElement exitCall = ExitCall.callerOrNull(Thread.getAllStackTraces(), Thread.currentThread());
            if (exitCall != null) {
                // Not a stop: the program left the job without a word to its peers, which is its failure.
                end(Abort.Reason.PROGRAM_FAILED, RankExit.PROGRAM_FAILED, ProgramEnd.exitCalled("System.exit",
                        exitCall));
                return;
            }
            // A rank cannot tell who sent the SIGTERM: the operator, or its launcher ending the job after another
            // rank failed (issue 14: "stopped by the operator" read as if someone had pressed Ctrl-C).
            end(Abort.Reason.OPERATOR_STOP, RankExit.OPERATOR_STOP,
                    "stopped by SIGTERM (the operator's stop, or the launcher ending the job)");
        }
    }

    /**
     * The launcher is gone ({@link LauncherWatch}; {@code how} its standard input ended): the same end as the
     * operator's stop, so that no rank runs on as an orphan whose output and status nobody reads. After the main
     * thread ended it does nothing: the rank is leaving anyway.
     */
    void launcherGone(String how) {
        synchronized (lock) {
            if (!ended && !endAsDecided()) {
                end(Abort.Reason.OPERATOR_STOP, RankExit.OPERATOR_STOP,
                        "stopped: its launcher is gone (" + how + ")");
            }
        }
    }

    /**
     * Ends the life with what was decided before the stop came: the main thread's outcome ({@link #decided}), or,
     * while the program runs, the job's failure or the program's throw (its ABORT sent here if the main thread has
     * not sent it yet). Then the PEM directory removed, that outcome's last line, halt with its status. False when
     * nothing was decided: the stop's own end follows.
     */
    private boolean endAsDecided() {
        Outcome outcome = decided;
        RankRuntime current = runtime;
        if (outcome == null && current != null) {
            Throwable thrown = programThrew;
            if (thrown != null) {
                ProgramEnd.abortFor(current, thrown);
            }
            SperliException failure = current.failure();
            if (failure != null || thrown != null) {
                outcome = Outcome.ofJob(failure, thrown);
                // Waits for the closes (close_notify) before the halt, as a normal end would.
                current.close();
            }
        }
        if (outcome == null) {
            return false;
        }
        ended = true;
        endStatus = outcome.status();
        removePems();
        handTraceOver();
        report.trace(outcome.cause(), outcome.alwaysTrace());
        if (outcome.lastLine() != null) {
            report.lastLine(outcome.lastLine());
        }
        halt(outcome.status());
        return true;
    }

    /**
     * The end of a life the main thread did not reach: ABORT {@code reason} to every connected peer, the PEM
     * directory removed, the last line, halt with {@code status}.
     */
    private void end(Abort.Reason reason, int status, String why) {
        ended = true;
        endStatus = status;
        RankRuntime current = runtime;
        if (current != null) {
            current.abort(reason, "rank " + rank + " " + why, null);
            // Waits for the closes (close_notify) before the halt, as a normal end would.
            current.close();
        }
        removePems();
        handTraceOver();
        report.lastLine(why + (current != null ? " (ABORT reason " + reason.code() + " to every connected peer)"
                : " while connecting"));
        halt(status);
    }

    /**
     * Hands the trace to the launcher, once, as lines on standard error ({@link org.sperli.trace.TracePart#lines})
     * before the last line, which stays the last.
     */
    private void handTraceOver() {
        RankTrace traced = trace;
        trace = null;
        if (traced != null) {
            traced.part().lines(report::note);
            report.flush();
        }
    }

    private void halt(int status) {
        stdout.flush();
        report.flush();
        closeQuietly(stdin);
        processEnd.halt(status);
    }

    private static void closeQuietly(InputStream in) {
        try {
            in.close();
        } catch (IOException e) {
            // leaving anyway
        }
    }
}
