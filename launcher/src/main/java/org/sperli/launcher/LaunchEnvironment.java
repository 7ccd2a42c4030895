package org.sperli.launcher;

import java.util.Map;
import java.util.Objects;

/**
 * What the launcher reads from the process it runs in, injectable so tests need not touch the real environment:
 * the environment variables (SPERLI_REFUSED_HOSTS, SLURM_JOB_NODELIST, SPERLI_DEBUG) and whether standard error is
 * a terminal (for the one-line progress display).
 */
public record LaunchEnvironment(Map<String, String> variables, boolean terminal) {
    /** The variable that turns on stack traces, like {@code -v}. */
    public static final String DEBUG_VARIABLE = "SPERLI_DEBUG";

    public LaunchEnvironment {
        variables = Map.copyOf(Objects.requireNonNull(variables, "variables"));
    }

    /** This process: {@link System#getenv()} and {@code System.console() != null}. */
    public static LaunchEnvironment ofProcess() {
        return new LaunchEnvironment(System.getenv(), System.console() != null);
    }

    /** Whether SPERLI_DEBUG is set to anything but empty, 0 or false. */
    public boolean debug() {
        String value = variables.get(DEBUG_VARIABLE);
        return value != null && !value.isEmpty() && !value.equals("0") && !value.equalsIgnoreCase("false");
    }
}
