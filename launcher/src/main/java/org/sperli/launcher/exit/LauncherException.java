package org.sperli.launcher.exit;

/**
 * A failure the operator can act on: one line of text and the launcher's exit status (see {@link ExitCodes}). It is
 * printed without a stack trace unless {@code -v} or {@code SPERLI_DEBUG} is set.
 */
public final class LauncherException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int exitCode;

    public LauncherException(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    public LauncherException(int exitCode, String message, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    /** Bad input ({@link ExitCodes#USAGE}). */
    public static LauncherException usage(String message) {
        return new LauncherException(ExitCodes.USAGE, message);
    }

    /** Ranks could not be started ({@link ExitCodes#START_FAILED}). */
    public static LauncherException startFailed(String message, Throwable cause) {
        return new LauncherException(ExitCodes.START_FAILED, message, cause);
    }

    public int exitCode() {
        return exitCode;
    }
}
