package org.sperli.launcher.command;

import java.time.InstantSource;
import java.util.Map;
import java.util.Objects;

/**
 * What the launcher reads from the process it runs in, injectable so tests need not touch the real environment:
 * the environment variables (SPERLI_REFUSED_HOSTS, SLURM_JOB_NODELIST, SPERLI_DEBUG, those {@code -x} copies),
 * whether standard error is a terminal (for the one-line progress display), and the clock of what the launcher
 * reports ({@code --timestamp-output}, {@code --report}). Certificates and join tokens always take the system's time:
 * ranks check them against their own clocks.
 */
public record LaunchEnvironment(Map<String, String> variables, boolean terminal, InstantSource clock) {
    /** The variable that turns on stack traces, like {@code -v}. */
    public static final String DEBUG_VARIABLE = "SPERLI_DEBUG";

    public LaunchEnvironment {
        variables = Map.copyOf(Objects.requireNonNull(variables, "variables"));
        Objects.requireNonNull(clock, "clock");
    }

    /** With the system clock. */
    public LaunchEnvironment(Map<String, String> variables, boolean terminal) {
        this(variables, terminal, InstantSource.system());
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
