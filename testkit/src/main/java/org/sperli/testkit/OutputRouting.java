package org.sperli.testkit;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * System.out and System.err while kit runs are under way: streams that send what a thread prints to the
 * {@link RankSink} of the rank it belongs to, and everything else to the streams that were there before. A thread
 * belongs to a rank when the kit started it for that rank or when one of the rank's threads started it (an inheritable
 * thread-local), so a job's own worker threads print as the rank. Installed by the first run that begins and
 * removed by the last that ends, unless someone else replaced the streams in between.
 */
final class OutputRouting {
    private static final InheritableThreadLocal<RankSink> CURRENT = new InheritableThreadLocal<>();
    private static final Object LOCK = new Object();
    private static int users;
    private static PrintStream originalOut;
    private static PrintStream originalErr;
    private static PrintStream routedOut;
    private static PrintStream routedErr;

    private OutputRouting() {
    }

    /** A run begins: the routing streams are installed if none is. Returns the original System.out. */
    static PrintStream acquire() {
        synchronized (LOCK) {
            if (users++ == 0) {
                originalOut = System.out;
                originalErr = System.err;
                routedOut = new PrintStream(new Router(originalOut, false), true, StandardCharsets.UTF_8);
                routedErr = new PrintStream(new Router(originalErr, true), true, StandardCharsets.UTF_8);
                System.setOut(routedOut);
                System.setErr(routedErr);
            }
            return originalOut;
        }
    }

    /** The original System.err of the runs under way. */
    static PrintStream originalErr() {
        synchronized (LOCK) {
            return originalErr != null ? originalErr : System.err;
        }
    }

    /** A run ended: the original streams come back when it was the last. */
    static void release() {
        synchronized (LOCK) {
            if (--users > 0) {
                return;
            }
            routedOut.flush();
            routedErr.flush();
            if (System.out == routedOut) {
                System.setOut(originalOut);
            }
            if (System.err == routedErr) {
                System.setErr(originalErr);
            }
            routedOut = null;
            routedErr = null;
        }
    }

    /** From now on, this thread and the threads it starts print to {@code sink}. */
    static void bind(RankSink sink) {
        CURRENT.set(sink);
    }

    /** This thread prints to the original streams again. */
    static void unbind() {
        CURRENT.remove();
    }

    /** One routed stream: to the current thread's open sink, else to the original. */
    private static final class Router extends OutputStream {
        private final PrintStream original;
        private final boolean stderr;

        Router(PrintStream original, boolean stderr) {
            this.original = original;
            this.stderr = stderr;
        }

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            RankSink sink = CURRENT.get();
            if (sink != null && sink.open()) {
                sink.write(stderr, b, off, len);
            } else {
                original.write(b, off, len);
            }
        }

        @Override
        public void flush() {
            original.flush();
        }
    }
}
