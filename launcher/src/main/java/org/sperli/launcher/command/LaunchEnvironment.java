package org.sperli.launcher.command;

import java.util.Map;
import java.util.Objects;
import org.sperli.jvm.Clock;

/**
 * What the launcher reads from the process it runs in, injectable so tests need not touch the real environment:
 * the environment variables (SPERLI_REFUSED_HOSTS, SLURM_JOB_NODELIST, SPERLI_DEBUG, those {@code -x} copies),
 * whether standard error is a terminal (for the one-line progress display), and the launcher's one clock: every
 * timer, deadline and timestamp of the launcher reads it, what it reports ({@code --timestamp-output},
 * {@code --report}) and the times its certificates and join tokens carry. Ranks check those against their own clocks,
 * so a clock that starts ranks must keep its wall time close to theirs.
 */
public record LaunchEnvironment(Map<String, String> variables, boolean terminal, Clock clock) {
    /** The variable that turns on stack traces, like {@code -v}. */
    public static final String DEBUG_VARIABLE = "SPERLI_DEBUG";

    public LaunchEnvironment {
        variables = Map.copyOf(Objects.requireNonNull(variables, "variables"));
        Objects.requireNonNull(clock, "clock");
    }

    /** With the system's clock. */
    public LaunchEnvironment(Map<String, String> variables, boolean terminal) {
        this(variables, terminal, Clock.SYSTEM);
    }

    /** This process: {@link System#getenv()}, {@code System.console() != null} and the system clock. */
    public static LaunchEnvironment ofProcess() {
        return new LaunchEnvironment(System.getenv(), System.console() != null);
    }

    /** Whether SPERLI_DEBUG is set to anything but empty, 0 or false. */
    public boolean debug() {
        String value = variables.get(DEBUG_VARIABLE);
        return value != null && !value.isEmpty() && !value.equals("0") && !value.equalsIgnoreCase("false");
    }
}
