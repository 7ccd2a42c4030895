package org.sperli.rankd;

import java.io.PrintStream;

/**
 * What rankd says on standard error: notes and warnings as they happen, stack traces only when asked for
 * ({@code SPERLI_DEBUG=1}) or for rankd's own bugs, and one last line that starts with the H code when there is one.
 * Every line is made single-line here, so a message with a line feed in it cannot push the last line up.
 */
final class Report {
    /** The environment variable that turns stack traces on. */
    static final String DEBUG_VARIABLE = "SPERLI_DEBUG";

    private static final int MAX_SUMMARY = 600;

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

    /**
     * One line about a throwable of the program: its class, its message and where it was thrown, for example
     * {@code java.lang.IllegalStateException: boom (at com.example.Pi.run(Pi.java:31))}.
     */
    static String summary(Throwable t) {
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
    static String at(StackTraceElement frame) {
        return "(at " + frame.getClassName() + '.' + frame.getMethodName() + '('
                + (frame.getFileName() != null ? frame.getFileName() + ":" + frame.getLineNumber() : "unknown") + "))";
    }

    /** One line of at most {@link #MAX_SUMMARY} characters. */
    static String bounded(String text) {
        String line = oneLine(text);
        return line.length() <= MAX_SUMMARY ? line : line.substring(0, MAX_SUMMARY) + "...";
    }

    /** Control characters (line feeds above all) become spaces. */
    static String oneLine(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            out.append(Character.isISOControl(c) ? ' ' : c);
        }
        return out.toString();
    }
}
