package org.sperli.rankd;

import java.io.PrintStream;
import org.sperli.rankd.job.ProgramEnd;

/**
 * What rankd says on standard error: notes and warnings as they happen, stack traces only when asked for
 * ({@code SPERLI_DEBUG=1}) or for rankd's own bugs, and one last line that starts with the H code when there is one.
 * Every line is made single-line here, so a message with a line feed in it cannot push the last line up.
 */
final class Report {
    /** The environment variable that turns stack traces on. */
    static final String DEBUG_VARIABLE = "SPERLI_DEBUG";

    private final PrintStream err;
    private final boolean debug;

    Report(PrintStream err, boolean debug) {
        this.err = err;
        this.debug = debug;
    }

    /** A line for the operator, from rankd or the runtime's log. */
    void note(String line) {
        err.println(oneLine(line));
    }

    /** Whether {@code SPERLI_DEBUG=1} asked for the details. */
    boolean debug() {
        return debug;
    }

    /** The stack trace of {@code t}, when debugging or {@code always}. */
    void trace(Throwable t, boolean always) {
        if (t != null && (debug || always)) {
            t.printStackTrace(err);
        }
    }

    /** The last line; nothing rankd prints comes after it. */
    void lastLine(String line) {
        err.println(oneLine(line));
        err.flush();
    }

    void flush() {
        err.flush();
    }

    /** See {@link ProgramEnd#summary}. */
    static String summary(Throwable t) {
        return ProgramEnd.summary(t);
    }

    /** See {@link ProgramEnd#bounded}. */
    static String bounded(String text) {
        return ProgramEnd.bounded(text);
    }

    /** See {@link ProgramEnd#oneLine}. */
    static String oneLine(String s) {
        return ProgramEnd.oneLine(s);
    }
}
