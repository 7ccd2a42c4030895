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
import org.sperli.checkpoint.CheckpointDirectory;
import org.sperli.crypto.CryptoEngine;
import org.sperli.identity.JobDescriptionValidator.ValidatedDescription;
import org.sperli.identity.JobDescriptionValidator;
import org.sperli.jobspec.JobDescription;
import org.sperli.jobspec.RankExit;
import org.sperli.jobspec.RankPhase;
import org.sperli.jobspec.RefusedHostPolicy;
import org.sperli.jvm.Clock;
import org.sperli.rankd.job.JobJar;
import org.sperli.rankd.job.ProgramEnd;
import org.sperli.runtime.RankConfig;
import org.sperli.runtime.RankConfigs;
import org.sperli.runtime.RankRuntime;
import org.sperli.trace.RankTrace;
import org.sperli.trace.TraceClock;
import org.sperli.trace.TraceKind;

/**
 * One rank's life, in this order: the command line; one line from standard input, parsed and validated (H1616,
 * then H1615 for refused hosts, then H1616 for an open-file limit too small for the job, {@link OpenFileLimit}); the
 * jar's SHA-256 and job class (H1616); the PEM texts into an owner-only directory that is removed as soon as the
 * connections are made or failed; the mesh; the job's constructor and {@code run};
 * BYE. Each step that fails ends the life with the status {@link RankExit} gives it and one last line on standard
 * error, starting with the H code when there is one. Refusals never print a stack trace (only with
 * {@code SPERLI_DEBUG=1}); the description, keys and tokens are never printed at all.
 *
 * <p>Its end is {@link RankEnd}'s, which the operator's stop (SIGTERM, Ctrl-C) and the end of the launcher (the end
 * of standard input, which stays open after the line for as long as the launcher lives) may reach first: the life
 * tells it each step that a stop must know of, and records its outcome there as soon as it is known.
 */
public final class RankLife {
    /** The longest a rank that ends waits for its TLS engine to finish loading. */
    private static final long ENGINE_SETTLE_SECONDS = 10;

    private final InputStream stdin;
    private final PrintStream stdout;
    private final Report report;
    private final Map<String, String> env;
    private final Clock clock;
    private final RankEnd end;
    private volatile CompletableFuture<CryptoEngine.Choice> engine;

    RankLife(InputStream stdin, PrintStream stdout, PrintStream stderr, Map<String, String> env, Clock clock,
             ProcessEnd processEnd) {
        this.stdin = stdin;
        this.stdout = stdout;
        this.env = Map.copyOf(env);
        this.report = new Report(stderr, "1".equals(env.get(Report.DEBUG_VARIABLE)));
        this.clock = clock;
        this.end = new RankEnd(stdin, stdout, report, processEnd);
    }

    /** The life of this process's rank on {@code clock}, the operator's stop installed as a shutdown hook. */
    static RankLife forThisProcess(Clock clock) {
        // Standard input through a channel: closing it wakes the watch thread blocked in read, so that the JVM's exit
        // need not wait 300 ms for a thread in native code (it does for every such thread).
        InputStream stdin = Channels.newInputStream(new FileInputStream(FileDescriptor.in).getChannel());
        RankLife life = new RankLife(stdin, System.out, System.err, System.getenv(), clock, ProcessEnd.JVM);
        Runtime.getRuntime().addShutdownHook(new Thread(life.end::stopByOperator, "sperli-rankd-stop"));
        return life;
    }

    /** The end of this life: the operator's stop, the launcher's end, the exit. */
    RankEnd end() {
        return end;
    }

    /**
     * Runs the rank's whole life and returns its exit status, the last line already printed. Returns -1 when the
     * operator's stop ended the life first; the stop then ends the process itself.
     */
    int run(String[] args) {
        return settle(decide(args));
    }

    /** The rank's life up to its outcome, which is recorded ({@link RankEnd#decided}) before anything else is done. */
    Outcome decide(String[] args) {
        Outcome outcome;
        try {
            outcome = live(args);
        } catch (RuntimeException | Error e) {
            outcome = new Outcome(RankExit.INTERNAL_ERROR, "internal error in sperli-rankd: " + Report.summary(e), e,
                    true);
        }
        return end.decided(outcome);
    }

    /**
     * After the decision: the PEM directory removed, the engine's loading ended, the last line. Returns the status,
     * or -1 when the operator's stop ended the life first.
     */
    int settle(Outcome outcome) {
        end.removePems();
        settleEngine();
        return end.finish(outcome) ? outcome.status() : -1;
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
        LauncherWatch.start(input, end::launcherGone);
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
            OpenFileLimit files = OpenFileLimit.ofThisProcess();
            if (files != null) {
                files.check(description.size(), description.ownHost().host());
            }
        } catch (SperliException e) {
            return refused(e);
        }
        end.rank(description.rank());
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
        RankTrace trace;
        try {
            CryptoEngine.Choice choice = engine.join();
            if (choice.fellBack() || report.debug()) {
                // The launcher names the engine once for the job; a rank speaks only when it could not follow.
                report.note(choice.note());
            }
            PemDirectory pems = end.writePems(validated);
            if (pems == null) {
                return Outcome.of(RankExit.OPERATOR_STOP, null, null);
            }
            for (Path stale : pems.removeStaleBeside(clock.instant())) {
                report.note("removed " + stale + ", the PEM directory of a rank killed earlier");
            }
            trace = traceOf(validated, arguments);
            end.traced(trace);
            RankConfig config = RankConfigs.fromDescription(validated, arguments.checkpointDirOrNull(),
                    arguments.checkpointWaitOrNull(), this::runtimeLog, clock);
            if (arguments.collectivesOrNull() != null) {
                config = config.withCollectives(arguments.collectivesOrNull());
            }
            connected = RankRuntime.connect(config, this::phase, trace);
        } catch (SperliException e) {
            // Decided here (a HELLO refused, a peer lost while connecting), before the PEM directory is removed.
            return end.decided(Outcome.of(RankExit.forCode(e.code()), e.getMessage(), e));
        } catch (IOException | UnsupportedOperationException e) {
            return refused(new SperliException(ErrorCode.H1616, "the PEM texts cannot be kept in an owner-only"
                    + " directory: " + e.getMessage(), e));
        } finally {
            end.removePems();
        }
        end.connected(connected);
        phase(RankPhase.RUNNING);
        long start = trace == null ? 0 : trace.now();
        Throwable thrown = jar.run(connected.forProgram(), jobArgs.toArray(String[]::new));
        if (trace != null) {
            trace.span(TraceKind.RUN, start, -1, -1, -1, connected.incarnation(), thrown != null);
        }
        end.programEnded(thrown);
        if (!end.unlessStopped(() -> phase(RankPhase.DONE))) {
            // The operator's stop owns the runtime now (its ABORT may still be on the way); its line is the last.
            return Outcome.of(RankExit.OPERATOR_STOP, null, null);
        }
        return ended(connected, thrown);
    }

    /** The rank's trace when {@code --trace} asked for one: a ring of that many events, on this life's clock. */
    private RankTrace traceOf(ValidatedDescription validated, RankdArguments arguments) {
        Integer events = arguments.traceEventsOrNull();
        if (events == null) {
            return null;
        }
        JobDescription d = validated.description();
        return new RankTrace(d.rank(), d.size(), d.incarnation(), d.ownHost().host(), events, new TraceClock(clock));
    }

    /**
     * After the program: ABORT when it threw while the job was still whole (reason 7, or reason 1 for an H1613 the
     * program did not catch), then close (BYE when nothing failed), then the status. The runtime's failure decides
     * it unless that failure is this rank's own ABORT.
     */
    private Outcome ended(RankRuntime runtime, Throwable thrown) {
        if (end.stopping()) {
            // The operator's stop owns the runtime now (its ABORT may still be on the way) and ends the process.
            return Outcome.of(RankExit.OPERATOR_STOP, null, null);
        }
        if (thrown != null) {
            ProgramEnd.abortFor(runtime, thrown);
        }
        runtime.close();
        end.unlessStopped(() -> phase(RankPhase.CLOSED));
        SperliException failure = runtime.failure();
        if (failure == null && thrown == null) {
            return Outcome.completed();
        }
        return Outcome.ofJob(failure, thrown);
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

    private static Outcome refused(SperliException e) {
        return Outcome.of(RankExit.forCode(e.code()), e.getMessage(), e);
    }
}
