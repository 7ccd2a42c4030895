package org.sperli.launcher.command;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Callable;
import org.sperli.launcher.exit.ExitCodes;
import org.sperli.launcher.job.JobControl;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code sperli}: the operator's command. Subcommands live in {@code org.sperli.launcher.command}, one class each.
 *
 * <p>{@link #commandLine(PrintWriter, PrintWriter)} is the one factory for {@link Main} and the tests: all output goes
 * through the writers given, failures become one line and an exit status from {@link ExitCodes}, and the running job
 * can be stopped from outside through {@link #jobControl()} (Main's shutdown hook for Ctrl-C and SIGTERM).
 */
@Command(name = "sperli",
        mixinStandardHelpOptions = true,
        description = "Runs SPERLI jobs: one rank per listed host entry, over TLS 1.3 with a CA made for the job.",
        subcommands = {RunCommand.class, DemoCommand.class, InspectCheckpointCommand.class,
            CommandLine.HelpCommand.class},
        exitCodeListHeading = SperliCommand.EXIT_CODES_HEADING)
public final class SperliCommand implements Callable<Integer> {
    static final String EXIT_CODES_HEADING = "%nExit codes:%n";

    /** How long a shutdown (Ctrl-C, SIGTERM) waits for the running job to stop its ranks and print its summary. */
    public static final Duration SHUTDOWN_WAIT = Duration.ofSeconds(20);

    private final LaunchEnvironment environment;
    private final JobControl jobControl;

    @Spec
    private CommandSpec spec;

    SperliCommand(LaunchEnvironment environment) {
        this.environment = Objects.requireNonNull(environment);
        this.jobControl = new JobControl(environment.clock());
    }

    /** The command for this process's environment, writing to {@code out} and {@code err}. */
    public static CommandLine commandLine(PrintWriter out, PrintWriter err) {
        return commandLine(out, err, LaunchEnvironment.ofProcess());
    }

    /** The command with an injected environment (tests). */
    public static CommandLine commandLine(PrintWriter out, PrintWriter err, LaunchEnvironment environment) {
        CommandLine cl = new CommandLine(new SperliCommand(environment));
        cl.setOut(out);
        cl.setErr(err);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.getCommandSpec().versionProvider(new VersionProvider(environment.variables()));
        cl.setExitCodeExceptionMapper(ExitCodes::of);
        cl.setParameterExceptionHandler(SperliCommand::usageError);
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> failure(ex, cmd, parsed, environment));
        for (CommandLine sub : cl.getSubcommands().values()) {
            // A subcommand with its own statuses (inspect-checkpoint) lists those instead of the job's.
            if (sub.getCommandSpec().usageMessage().exitCodeList().isEmpty()) {
                sub.getCommandSpec().usageMessage().exitCodeListHeading(EXIT_CODES_HEADING)
                        .exitCodeList(ExitCodes.descriptions());
            }
        }
        cl.getCommandSpec().usageMessage().exitCodeList(ExitCodes.descriptions());
        // Everything after the jar belongs to the job, even words that look like options.
        cl.getSubcommands().get("run").setStopAtPositional(true);
        return cl;
    }

    /** The environment this command was made with. */
    public LaunchEnvironment environment() {
        return environment;
    }

    /** The jobs this command runs, for stopping them from a shutdown hook. */
    public JobControl jobControl() {
        return jobControl;
    }

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCodes.USAGE;
    }

    private static int usageError(CommandLine.ParameterException ex, String[] args) {
        CommandLine cmd = ex.getCommandLine();
        String name = cmd.getCommandSpec().qualifiedName();
        cmd.getErr().println("sperli: " + oneLine(ex.getMessage()) + " (see '" + name + " --help')");
        cmd.getErr().flush();
        return ExitCodes.USAGE;
    }

    private static int failure(Exception ex, CommandLine cmd, CommandLine.ParseResult parsed,
                               LaunchEnvironment environment) {
        PrintWriter err = cmd.getErr();
        int code = ExitCodes.of(ex);
        err.println("sperli: " + message(ex, code));
        if (environment.debug() || verbose(parsed)) {
            ex.printStackTrace(err);
        }
        err.flush();
        return code;
    }

    private static String message(Throwable ex, int code) {
        if (ex instanceof UncheckedIOException u && u.getCause() != null) {
            return oneLine(u.getMessage());
        }
        if (code == ExitCodes.INTERNAL) {
            return "internal error: " + oneLine(String.valueOf(ex)) + " (rerun with -v for the stack trace)";
        }
        return oneLine(ex.getMessage());
    }

    /** Whether -v was given to any command on the line. */
    private static boolean verbose(CommandLine.ParseResult parsed) {
        for (CommandLine.ParseResult p = parsed; p != null; p = p.subcommand()) {
            if (p.hasMatchedOption("--verbose")) {
                return true;
            }
        }
        return false;
    }

    private static String oneLine(String s) {
        return s == null ? "(no message)" : s.replace('\n', ' ').replace('\r', ' ');
    }
}
