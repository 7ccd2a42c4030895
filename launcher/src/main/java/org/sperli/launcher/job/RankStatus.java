package org.sperli.launcher.job;

import org.sperli.ErrorCode;
import org.sperli.jobspec.RankExit;

/**
 * The launcher's view of a rank's exit status: the statuses of the rank contract ({@link RankExit}), and beside them
 * what only a launcher sees (a shell that cannot run the rank command, a lost SSH channel, a signal), for messages
 * and for deciding whether a restart can help.
 */
public final class RankStatus {
    /** A shell's status for a command it found but could not run. */
    public static final int SHELL_CANNOT_EXECUTE = 126;
    /** A shell's status for a command it did not find. */
    public static final int SHELL_NOT_FOUND = 127;

    private RankStatus() {
    }

    /**
     * As {@link #describe(int)}, but when the rank's last line starts with an H code, the words in parentheses are
     * that code's meaning and not the status's group (protocol section 11): status 7 is a collective frame that did
     * not answer the call as well as a failed checkpoint, and only the code says which.
     */
    public static String describe(int status, String lastLine) {
        ErrorCode code = leadingCode(lastLine);
        if (code == null || status == RankExit.COMPLETED || status == RankProcess.LOST || status > 128) {
            return describe(status);
        }
        return "exited with status " + status + " (" + code.meaning() + ")";
    }

    /** The H code a rank's last line starts with ({@code H1613 rank 3 ...}), or null. */
    static ErrorCode leadingCode(String line) {
        if (line == null || line.length() < 5 || line.charAt(0) != 'H'
                || (line.length() > 5 && line.charAt(5) != ' ' && line.charAt(5) != ':')) {
            return null;
        }
        for (int i = 1; i < 5; i++) {
            if (line.charAt(i) < '0' || line.charAt(i) > '9') {
                return null;
            }
        }
        return ErrorCode.ofNumber(Integer.parseInt(line.substring(1, 5)));
    }

    /** For example {@code exited with status 5 (a peer was lost)}. */
    public static String describe(int status) {
        String meaning = RankExit.meaning(status);
        if (status == RankExit.COMPLETED) {
            return meaning;
        }
        if (meaning != null) {
            return "exited with status " + status + " (" + meaning + ")";
        }
        return switch (status) {
            case SHELL_CANNOT_EXECUTE -> "exited with status 126 (the rank command cannot be executed)";
            case SHELL_NOT_FOUND -> "exited with status 127 (the rank command was not found)";
            case RankProcess.LOST -> "was lost (status 255: connection closed without a status)";
            default -> status > 128 && status < 128 + 65 ? "was killed by signal " + (status - 128)
                    : "exited with status " + status;
        };
    }

    /** Whether another incarnation cannot help: a refused description or jar, a rank command that cannot run. */
    public static boolean isFinal(int status) {
        return status == RankExit.REFUSED || status == SHELL_CANNOT_EXECUTE || status == SHELL_NOT_FOUND;
    }
}
