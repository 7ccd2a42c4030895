package org.sperli.rankd;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.SperliJob;
import org.sperli.checkpoint.CheckpointDirectory;
import org.sperli.crypto.CryptoEngine;
import org.sperli.identity.JobDescriptionValidator.ValidatedDescription;
import org.sperli.identity.JobDescriptionValidator;
import org.sperli.jobspec.JobDescription;
import org.sperli.jobspec.RankExit;
import org.sperli.jobspec.RankPhase;
import org.sperli.jobspec.RefusedHostPolicy;
import org.sperli.jvm.Clock;
import org.sperli.protocol.payload.Abort;
import org.sperli.rankd.job.JobJar;
import org.sperli.rankd.job.ProgramFailure;
import org.sperli.runtime.RankConfigs;
import org.sperli.runtime.RankRuntime;

/**
 * One rank's life, in this order: the command line; one line from standard input, parsed and validated (H1616,
 * then H1615 for refused hosts); the jar's SHA-256 and job class (H1616); the PEM texts into an owner-only directory
 * that is removed as soon as the connections are made or failed; the mesh; the job's constructor and {@code run};
 * BYE. Each step that fails ends the life with the status {@link RankExit} gives it and one last line on standard
 * error, starting with the H code when there is one. Refusals never print a stack trace (only with
 * {@code SPERLI_DEBUG=1}); the description, keys and tokens are never printed at all.
 *
 * <p>Standard input stays open after the line for as long as the launcher lives; its end is {@link #launcherGone},
 * which stops the rank as the operator's stop would.
 *
 * <p>The operator's stop (SIGTERM, Ctrl-C) runs {@link #stopByOperator} on a shutdown hook: the first of it and the
 * main thread to reach the end decides the status and says the last line ({@link #finish}); the other says nothing.
 * What the rank decided before the stop came stays decided: its outcome is recorded as soon as it is known
 * ({@link #decided}), or read from the job's failure while the program runs, and the stop ends with that.
 */
public final class Rankd {
    /** The longest a rank that ends waits for its TLS engine to finish loading. */
    private static final long ENGINE_SETTLE_SECONDS = 10;

    private final InputStream stdin;
    private final PrintStream stdout;
    private final Report report;
    private final Map<String, String> env;
    private final Clock clock;
    private final ProcessEnd processEnd;

    private final Object endLock = new Object();
    private boolean ended;
    private int endStatus;
    /** The main thread's outcome once known, before it reached {@link #finish}; guarded by the end lock. */
    private Outcome decided;
    private volatile RankRuntime runtime;
    /** What the program threw, once its {@code run} has returned or thrown; null until then and when it returned. */
    private volatile Throwable programThrew;
    private volatile PemDirectory pems;
    private volatile int rank = -1;
    private volatile CompletableFuture<CryptoEngine.Choice> engine;

    Rankd(InputStream stdin, PrintStream stdout, PrintStream stderr, Map<String, String> env, Clock clock,
          ProcessEnd processEnd) {
        this.stdin = stdin;
        this.stdout = stdout;
        this.env = Map.copyOf(env);
        this.report = new Report(stderr, "1".equals(env.get(Report.DEBUG_VARIABLE)));
        this.clock = clock;
        this.processEnd = processEnd;
    }

    /** The rankd of this process on {@code clock}, its operator's stop installed as a shutdown hook. */
    static Rankd forThisProcess(Clock clock) {
        // Standard input through a channel: closing it wakes the watch thread blocked in read, so that the JVM's exit
        // need not wait 300 ms for a thread in native code (it does for every such thread).
        InputStream stdin = Channels.newInputStream(new FileInputStream(FileDescriptor.in).getChannel());
        Rankd rankd = new Rankd(stdin, System.out, System.err, System.getenv(), clock, ProcessEnd.JVM);
        Runtime.getRuntime().addShutdownHook(new Thread(rankd::stopByOperator, "sperli-rankd-stop"));
        return rankd;
    }

    /**
     * Runs the rank's whole life and returns its exit status, the last line already printed. Returns -1 when the
     * operator's stop ended the life first; the stop then ends the process itself.
     */
    int run(String[] args) {
        return settle(decide(args));
    }

    /** The rank's life up to its outcome, which is recorded ({@link #decided}) before anything else is done. */
    Outcome decide(String[] args) {
        Outcome outcome;
        try {
            outcome = live(args);
        } catch (RuntimeException | Error e) {
            outcome = new Outcome(RankExit.INTERNAL_ERROR, "internal error in sperli-rankd: " + Report.summary(e), e,
                    true);
        }
        return decided(outcome);
    }

    /**
     * After the decision: the PEM directory removed, the engine's loading ended, the last line. Returns the status,
     * or -1 when the operator's stop ended the life first.
     */
    int settle(Outcome outcome) {
        removePems();
        settleEngine();
        return finish(outcome) ? outcome.status() : -1;
    }

    /**
     * Records {@code outcome} as the main thread's decision, unless the operator's stop ended the life first: a stop
     * that comes later (the launcher ends the job when a rank failed, maybe this one) must not turn it into 8.
     */
    private Outcome decided(Outcome outcome) {
        synchronized (endLock) {
            if (!ended) {
                decided = outcome;
            }
        }
        return outcome;
    }

    /**
     * Lets the engine's loading end before the process does, also after a refusal that came first: ACCP unpacks its
     * library into the temporary directory and removes it once loaded, and an exit in between would leave it there.
     */
    private void settleEngine() {
        CompletableFuture<CryptoEngine.Choice> loading = engine;
        if (loading == null) {
            return;
        }
        try {
            loading.get(ENGINE_SETTLE_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // The rank is ending anyway; an engine that failed or hangs has nothing left to clean.
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

    private Outcome live(String[] args) {
        RankdArguments arguments;
        try {
            arguments = RankdArguments.parse(args);
        } catch (IllegalArgumentException e) {
            report.note(RankdArguments.USAGE);
            return Outcome.of(RankExit.REFUSED, ErrorCode.H1616.name() + " command line refused: "
                    + RankdArguments.printable(e.getMessage()), e);
        }
        if (arguments.help()) {
            stdout.println(RankdArguments.USAGE);
            return Outcome.completed();
        }
        phase(RankPhase.STARTED);
        if (arguments.checkpointDirOrNull() != null) {
            String problem = CheckpointDirectory.problem(arguments.checkpointDirOrNull());
            if (problem != null) {
                return Outcome.of(RankExit.REFUSED, ErrorCode.H1616.name() + " command line refused: --checkpoint-dir "
                        + RankdArguments.printable(arguments.checkpointDirOrNull().toString()) + ": " + problem, null);
            }
        }
        String engineWord;
        try {
            engineWord = CryptoEngine.requested(arguments.tlsEngineOrNull(), env);
        } catch (IllegalArgumentException e) {
            String source = arguments.tlsEngineOrNull() != null ? "command line refused: --tls-engine: "
                    : CryptoEngine.VARIABLE + " refused: ";
            return Outcome.of(RankExit.REFUSED, ErrorCode.H1616.name() + " " + source
                    + RankdArguments.printable(e.getMessage()), e);
        }
        // Loading the engine and the TLS stack takes a rank's start-up as long as reading and checking its
        // description; on a machine with a core to spare the two overlap.
        engine = CompletableFuture.supplyAsync(() -> CryptoEngine.selectAndWarmUp(engineWord, env), runnable -> {
            Thread t = new Thread(runnable, "sperli-crypto-start");
            t.setDaemon(true);
            t.start();
        });
        JobDescription description;
        StdinBuffer input = new StdinBuffer(stdin);
        try {
            description = JobDescription.parse(input);
        } catch (SperliException e) {
            return refused(e);
        } catch (IOException e) {
            return refused(new SperliException(ErrorCode.H1616, "standard input cannot be read: " + e.getMessage()));
        }
        LauncherWatch.start(input, this::launcherGone);
        try {
            return validated(arguments, description);
        } finally {
            description.destroySecrets();
        }
    }

    private Outcome validated(RankdArguments arguments, JobDescription description) {
        RefusedHostPolicy policy;
        try {
            policy = RefusedHostPolicy.fromEnvironment(env, arguments.denyFileOrNull(),
                    warning -> report.note("warning: " + warning));
        } catch (UncheckedIOException e) {
            // A deny file that exists but cannot be read: refusing nothing the operator meant to refuse fails open.
            return refused(new SperliException(ErrorCode.H1615, e.getMessage(), e));
        }
        ValidatedDescription validated;
        try {
            validated = JobDescriptionValidator.validate(description, policy, clock.millis());
        } catch (SperliException e) {
            return refused(e);
        }
        rank = description.rank();
        JobJar jar;
        try {
            jar = JobJar.open(arguments.jar(), arguments.jarSha256OrNull());
        } catch (SperliException e) {
            // The reason names the jar; "job description refused" would mislead.
            return Outcome.of(RankExit.REFUSED, e.code().name() + " " + e.reason(), e);
        }
        try (jar) {
            return joined(validated, jar, arguments);
        }
    }

    private Outcome joined(ValidatedDescription validated, JobJar jar, RankdArguments arguments) {
        List<String> jobArgs = arguments.jobArgs();
        RankRuntime connected;
        try {
            CryptoEngine.Choice choice = engine.join();
            if (choice.fellBack() || report.debug()) {
                // The launcher names the engine once for the job; a rank speaks only when it could not follow.
                report.note(choice.note());
            }
            if (!writePems(validated)) {
                return Outcome.of(RankExit.OPERATOR_STOP, null, null);
            }
            for (Path stale : pems.removeStaleBeside(clock.instant())) {
                report.note("removed " + stale + ", the PEM directory of a rank killed earlier");
            }
            connected = RankRuntime.connect(RankConfigs.fromDescription(validated, arguments.checkpointDirOrNull(),
                    arguments.checkpointWaitOrNull(), this::runtimeLog, clock), this::phase);
        } catch (SperliException e) {
            // Decided here (a HELLO refused, a peer lost while connecting), before the PEM directory is removed.
            return decided(Outcome.of(RankExit.forCode(e.code()), e.getMessage(), e));
        } catch (IOException | UnsupportedOperationException e) {
            return refused(new SperliException(ErrorCode.H1616, "the PEM texts cannot be kept in an owner-only"
                    + " directory: " + e.getMessage(), e));
        } finally {
            removePems();
        }
        runtime = connected;
        phase(RankPhase.RUNNING);
        Throwable thrown = runJob(jar, connected, jobArgs.toArray(String[]::new));
        programThrew = thrown;
        if (!phaseUnlessStopped(RankPhase.DONE)) {
            // The operator's stop owns the runtime now (its ABORT may still be on the way); its line is the last.
            return Outcome.of(RankExit.OPERATOR_STOP, null, null);
        }
        return ended(connected, thrown);
    }

    /**
     * Writes the PEM directory unless the operator's stop (or the launcher's end) came first; false then. Under the
     * end lock, so that a stop sees either no directory or one it can remove: a stop between the directory's creation
     * and its assignment would halt the process and leave the keys on disk.
     */
    private boolean writePems(ValidatedDescription validated) throws IOException {
        synchronized (endLock) {
            if (ended) {
                return false;
            }
            pems = PemDirectory.write(validated.description());
            return true;
        }
    }

    /** Runs the job's constructor and {@code run} with the job's loader as context loader; returns what it threw. */
    private static Throwable runJob(JobJar jar, RankRuntime comm, String[] args) {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(jar.loader());
        try {
            SperliJob job = jar.instantiate();
            job.run(comm, args);
            return null;
        } catch (ProgramFailure e) {
            return e.getCause() != null ? e.getCause() : e;
        } catch (Throwable e) {
            // Whatever the program throws, Errors included, is its failure: the job must end, never hang.
            return e;
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    /**
     * After the program: ABORT when it threw while the job was still whole (reason 7, or reason 1 for an H1613 the
     * program did not catch), then close (BYE when nothing failed), then the status. The runtime's failure decides
     * it unless that failure is this rank's own ABORT.
     */
    private Outcome ended(RankRuntime runtime, Throwable thrown) {
        if (stopping()) {
            // The operator's stop owns the runtime now (its ABORT may still be on the way) and ends the process.
            return Outcome.of(RankExit.OPERATOR_STOP, null, null);
        }
        if (thrown != null) {
            abortForProgram(runtime, thrown);
        }
        runtime.close();
        phaseUnlessStopped(RankPhase.CLOSED);
        SperliException failure = runtime.failure();
        if (failure == null && thrown == null) {
            return Outcome.completed();
        }
        return verdict(failure, thrown);
    }

    /**
     * ABORT for a program that threw while the job was still whole: reason 7, or reason 1 for an H1613 the program
     * did not catch. Nothing when the job already failed; both the main thread and the stop may call it.
     */
    private void abortForProgram(RankRuntime runtime, Throwable thrown) {
        if (runtime.failure() != null) {
            return;
        }
        String message = "rank " + rank + " program failed: " + Report.summary(thrown);
        if (thrown instanceof SperliException e && e.code() == ErrorCode.H1613) {
            // A peer left while the program waited on it, seen before the runtime's own verdict: peer lost.
            runtime.abort(Abort.Reason.PEER_LOST, ErrorCode.H1613, message, thrown);
        } else {
            runtime.abort(Abort.Reason.PROGRAM_FAILED, message, thrown);
        }
    }

    /**
     * The outcome of a job that failed with {@code failure} after the program threw {@code thrown} (either may be
     * null, not both): the program's own when it threw first, the job's failure otherwise.
     */
    private static Outcome verdict(SperliException failure, Throwable thrown) {
        if (thrown != null && (failure == null || failure.getCause() == thrown)) {
            String line = thrown instanceof SperliException e ? e.getMessage() : "program failed: "
                    + Report.summary(thrown);
            return Outcome.of(RankExit.forProgramThrowable(thrown), line, thrown);
        }
        return Outcome.of(RankExit.forCode(failure.code()), failure.getMessage(), failure);
    }

    /**
     * {@link #phase} unless the operator's stop has begun (false then): the stop's line must stay the last, and a
     * program that the stop's ABORT ended returns while the stop is still writing it. Under the end lock, so the stop
     * cannot begin between the look and the line.
     */
    private boolean phaseUnlessStopped(RankPhase phase) {
        synchronized (endLock) {
            if (ended) {
                return false;
            }
            phase(phase);
            return true;
        }
    }

    /** Tells the launcher how far this rank got (its progress display and phase breakdown use these lines). */
    private void phase(RankPhase phase) {
        report.note(phase.line());
        report.flush();
    }

    private void runtimeLog(String line) {
        // The runtime logs the job's failure when it decides it; this process's last line states that failure again
        // (the launcher reads it there), so the copy would only double the line.
        if (!statesAFailure(line)) {
            report.note(line);
        }
    }

    /** Whether {@code line} is a failure's message: an H code, a space, the reason. */
    private static boolean statesAFailure(String line) {
        int space = line.indexOf(' ');
        if (space <= 0) {
            return false;
        }
        try {
            ErrorCode.valueOf(line.substring(0, space));
            return true;
        } catch (IllegalArgumentException notACode) {
            return false;
        }
    }

    /** Whether the operator's stop has begun; while it runs this blocks, and in a real process it never returns. */
    private boolean stopping() {
        synchronized (endLock) {
            return ended;
        }
    }

    private static Outcome refused(SperliException e) {
        return Outcome.of(RankExit.forCode(e.code()), e.getMessage(), e);
    }

    /** The main thread's end: says the last line unless the operator's stop came first. */
    private boolean finish(Outcome outcome) {
        synchronized (endLock) {
            if (ended) {
                return false;
            }
            ended = true;
            endStatus = outcome.status();
            report.trace(outcome.cause(), outcome.alwaysTrace());
            if (outcome.lastLine() != null) {
                report.lastLine(outcome.lastLine());
            }
            stdout.flush();
            return true;
        }
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
        synchronized (endLock) {
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
                end(Abort.Reason.PROGRAM_FAILED, RankExit.PROGRAM_FAILED, Report.bounded("program failed: it called"
                        + " System.exit " + Report.at(exitCall) + " instead of returning from run"));
                return;
            }
            // A rank cannot tell who sent the SIGTERM: the operator, or its launcher ending the job after another
            // rank failed (issue 14: "stopped by the operator" read as if someone had pressed Ctrl-C).
            stop("stopped by SIGTERM (the operator's stop, or the launcher ending the job)");
        }
    }

    /**
     * The launcher is gone ({@link LauncherWatch}; {@code how} its standard input ended): the same end as the
     * operator's stop, so that no rank runs on as an orphan whose output and status nobody reads. After the main
     * thread ended it does nothing: the rank is leaving anyway.
     */
    void launcherGone(String how) {
        synchronized (endLock) {
            if (!ended && !endAsDecided()) {
                stop("stopped: its launcher is gone (" + how + ")");
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
                abortForProgram(current, thrown);
            }
            SperliException failure = current.failure();
            if (failure != null || thrown != null) {
                outcome = verdict(failure, thrown);
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
        report.trace(outcome.cause(), outcome.alwaysTrace());
        if (outcome.lastLine() != null) {
            report.lastLine(outcome.lastLine());
        }
        halt(outcome.status());
        return true;
    }

    /** ABORT reason 8 to every connected peer, the PEM directory removed, the last line, halt with 8. */
    private void stop(String why) {
        end(Abort.Reason.OPERATOR_STOP, RankExit.OPERATOR_STOP, why);
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
        report.lastLine(why + (current != null ? " (ABORT reason " + reason.code() + " to every connected peer)"
                : " while connecting"));
        halt(status);
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

    private void removePems() {
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
}
