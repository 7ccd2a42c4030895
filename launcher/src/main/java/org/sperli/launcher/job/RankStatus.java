package org.sperli.launcher.job;

import org.sperli.ErrorCode;

/**
 * What a rank's exit status means (tables section 10, "Ranks and the launcher"), for messages and for deciding
 * whether a restart can help.
 */
public final class RankStatus {
    public static final int COMPLETED = 0;
    public static final int REFUSED_DESCRIPTION_OR_JAR = 2;
    public static final int PROGRAM_FAILED = 3;
    public static final int ABORTED_BY_PEER = 4;
    public static final int PEER_LOST = 5;
    public static final int REFUSED_FRAME = 6;
    public static final int CHECKPOINT_FAILED = 7;
    public static final int STOPPED_BY_OPERATOR = 8;
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
        if (code == null || status == COMPLETED || status == RankProcess.LOST || status > 128) {
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
        return switch (status) {
            case COMPLETED -> "completed";
            case REFUSED_DESCRIPTION_OR_JAR -> "exited with status 2 (description or jar refused)";
            case PROGRAM_FAILED -> "exited with status 3 (the program failed)";
            case ABORTED_BY_PEER -> "exited with status 4 (aborted by a peer)";
            case PEER_LOST -> "exited with status 5 (a peer was lost)";
            case REFUSED_FRAME -> "exited with status 6 (frame, handshake or HELLO refused)";
            case CHECKPOINT_FAILED -> "exited with status 7 (collective mismatch, or checkpoint or resume failed)";
            case STOPPED_BY_OPERATOR -> "exited with status 8 (stopped by the operator)";
            case SHELL_CANNOT_EXECUTE -> "exited with status 126 (the rank command cannot be executed)";
            case SHELL_NOT_FOUND -> "exited with status 127 (the rank command was not found)";
            case RankProcess.LOST -> "was lost (status 255: connection closed without a status)";
            default -> status > 128 && status < 128 + 65 ? "was killed by signal " + (status - 128)
                    : "exited with status " + status;
        };
    }

    /** Whether another incarnation cannot help: a refused description or jar, a rank command that cannot run. */
    public static boolean isFinal(int status) {
        return status == REFUSED_DESCRIPTION_OR_JAR || status == SHELL_CANNOT_EXECUTE || status == SHELL_NOT_FOUND;
    }
}
