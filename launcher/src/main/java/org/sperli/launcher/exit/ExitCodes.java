package org.sperli.launcher.exit;

import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import picocli.CommandLine;

/**
 * The launcher's exit statuses and the one place that maps a failure to one of them. The help text lists exactly
 * {@link #descriptions()}, so the two cannot drift. A rank's statuses ({@code RankExit}) are another table, read by
 * this launcher, not by the shell: the two look alike only in form.
 */
public final class ExitCodes {
    /** Every rank of the last incarnation exited 0. */
    public static final int COMPLETED = 0;
    /** A rank failed and the restarts allowed by --restart-max are used up. */
    public static final int JOB_FAILED = 1;
    /**
     * The command line, a host list, a hostfile, a deny file or the job jar is wrong, or this host cannot hold the
     * local ranks (too little memory, a rank port in its ephemeral range); nothing was started.
     */
    public static final int USAGE = 2;
    /** A listed host is refused by the refused-host policy (H1615); nothing was started. */
    public static final int HOST_REFUSED = 3;
    /**
     * Ranks could not be started: no reachable host left, SSH host key or authentication refused (by the built-in
     * client or the {@code --ssh-command} program, or that program not found), an SSH host that cannot hold its ranks
     * (memory, Java, a rank port in its ephemeral range, a host-list name it cannot resolve), the jar could not be
     * staged, the rank command is missing, or a rank refused its description or jar (rank status 2).
     */
    public static final int START_FAILED = 4;
    /** A bug in the launcher; the message says what, {@code -v} shows the stack trace. */
    public static final int INTERNAL = 5;
    /** Ctrl-C (SIGINT): every rank was stopped. The JVM sets 128 + 2 itself. */
    public static final int INTERRUPTED = 130;
    /** SIGTERM: every rank was stopped. The JVM sets 128 + 15 itself. */
    public static final int TERMINATED = 143;

    private ExitCodes() {
    }

    /** Status to meaning, in the order the help shows them. */
    public static Map<String, String> descriptions() {
        Map<String, String> codes = new LinkedHashMap<>();
        codes.put(" " + COMPLETED, "job completed: every rank exited 0");
        codes.put(" " + JOB_FAILED, "job failed after --restart-max restarts");
        codes.put(" " + USAGE, "usage or bad input (options, hosts, hostfile, deny file, jar); nothing started");
        codes.put(" " + HOST_REFUSED, "H1615: a listed host is refused (SPERLI_REFUSED_HOSTS, built-ins,"
                + " --deny-hosts); nothing started");
        codes.put(" " + START_FAILED, "ranks could not be started (unreachable hosts, SSH host key or login"
                + " refused, staging, rank command, description or jar refused by a rank)");
        codes.put(" " + INTERNAL, "internal error of the launcher");
        codes.put(INTERRUPTED + "", "interrupted (Ctrl-C); every rank stopped");
        codes.put(TERMINATED + "", "terminated (SIGTERM); every rank stopped");
        return codes;
    }

    /** The status for a failure that escaped a command. */
    public static int of(Throwable failure) {
        if (failure instanceof LauncherException e) {
            return e.exitCode();
        }
        if (failure instanceof SperliException e) {
            return e.code() == ErrorCode.H1615 ? HOST_REFUSED : USAGE;
        }
        if (failure instanceof CommandLine.ParameterException) {
            return USAGE;
        }
        if (failure instanceof UncheckedIOException) {
            // A deny file or hostfile that exists but cannot be read: the operator's input.
            return USAGE;
        }
        return INTERNAL;
    }
}
