package org.sperli.rankd.job;

import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.jobspec.RankExit;
import org.sperli.protocol.payload.Abort;
import org.sperli.runtime.RankRuntime;

/**
 * How a rank's program ended, as a rank process says it: the exit status ({@link RankExit}), the last line for
 * standard error and the throwable behind it. One place for rankd, which ends a process with it, and for the test kit
 * (module testkit), which runs ranks as threads and reports the same status and line for each.
 *
 * @param status   the rank's exit status
 * @param lastLine what the rank says last, or null for nothing (a rank that completed)
 * @param cause    what the program threw or the job's failure; null when it completed
 */
public record ProgramEnd(int status, String lastLine, Throwable cause) {
    private static final int MAX_SUMMARY = 600;

    /** The program returned and the job did not fail. */
    public static ProgramEnd completed() {
        return new ProgramEnd(RankExit.COMPLETED, null, null);
    }

    /**
     * ABORT for a program that threw while the job was still whole: reason 7, or reason 1 for an H1613 the program
     * did not catch (a peer left while the program waited on it, seen before the runtime's own verdict). Nothing when
     * the job already failed.
     */
    public static void abortFor(RankRuntime runtime, Throwable thrown) {
        if (runtime.failure() != null) {
            return;
        }
        String message = "rank " + runtime.rank() + " program failed: " + summary(thrown);
        if (thrown instanceof SperliException e && e.code() == ErrorCode.H1613) {
            runtime.abort(Abort.Reason.PEER_LOST, ErrorCode.H1613, message, thrown);
        } else {
            runtime.abort(Abort.Reason.PROGRAM_FAILED, message, thrown);
        }
    }

    /**
     * The end of a rank whose job failed with {@code failure} after the program threw {@code thrown} (either may be
     * null): the program's own when it threw first, the job's failure otherwise, completed when neither.
     */
    public static ProgramEnd of(SperliException failure, Throwable thrown) {
        if (failure == null && thrown == null) {
            return completed();
        }
        if (thrown != null && (failure == null || failure.getCause() == thrown)) {
            String line = thrown instanceof SperliException e ? e.getMessage() : "program failed: " + summary(thrown);
            return new ProgramEnd(RankExit.forProgramThrowable(thrown), line, thrown);
        }
        return new ProgramEnd(RankExit.forCode(failure.code()), failure.getMessage(), failure);
    }

    /**
     * The line of a program that called {@code call} (for example {@code System.exit}) at {@code caller} instead of
     * returning: its failure, status 3.
     */
    public static String exitCalled(String call, StackTraceElement caller) {
        return bounded("program failed: it called " + call + " " + at(caller) + " instead of returning from run");
    }

    /**
     * One line about a throwable of the program: its class, its message and where it was thrown, for example
     * {@code java.lang.IllegalStateException: boom (at com.example.Pi.run(Pi.java:31))}.
     */
    public static String summary(Throwable t) {
        StringBuilder s = new StringBuilder(t.getClass().getName());
        if (t.getMessage() != null) {
            s.append(": ").append(t.getMessage());
        }
        StackTraceElement[] stack = t.getStackTrace();
        if (stack.length > 0) {
            s.append(' ').append(at(stack[0]));
        }
        return bounded(s.toString());
    }

    /** {@code (at Class.method(File.java:12))}: without the loader and module names StackTraceElement adds. */
    public static String at(StackTraceElement frame) {
        return "(at " + frame.getClassName() + '.' + frame.getMethodName() + '('
                + (frame.getFileName() != null ? frame.getFileName() + ":" + frame.getLineNumber() : "unknown") + "))";
    }

    /** One line of at most 600 characters. */
    public static String bounded(String text) {
        String line = oneLine(text);
        return line.length() <= MAX_SUMMARY ? line : line.substring(0, MAX_SUMMARY) + "...";
    }

    /** Control characters (line feeds above all) become spaces. */
    public static String oneLine(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            out.append(Character.isISOControl(c) ? ' ' : c);
        }
        return out.toString();
    }
}
