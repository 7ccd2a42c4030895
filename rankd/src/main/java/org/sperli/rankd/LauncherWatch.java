package org.sperli.rankd;

import java.io.IOException;
import java.io.InputStream;
import java.util.function.Consumer;

/**
 * Watches the standard input a rank was started with, after its description line: the launcher keeps it open for as
 * long as it supervises the rank (locally a pipe, over SSH the channel), so its end means the launcher is gone,
 * killed or cut off, and nobody would read this rank's output or status any more (protocol section 11). A read that
 * fails means the same, since nothing tells the rank any longer that its launcher lives; the reason is kept for the
 * rank's last line. Bytes after the line are read and dropped a small buffer at a time.
 */
final class LauncherWatch {
    /** How {@code onGone} is told that standard input ended. */
    static final String CLOSED = "standard input closed";

    private static final int DRAIN_BUFFER = 256;

    private LauncherWatch() {
    }

    /**
     * Starts a daemon thread that reads {@code rest} to its end and then tells {@code onGone} how it ended:
     * {@link #CLOSED}, or {@code standard input failed: REASON}. {@code rest} must answer reads without asking
     * {@code available()} of a pipe ({@link StdinBuffer}).
     */
    static void start(InputStream rest, Consumer<String> onGone) {
        Thread watch = new Thread(() -> onGone.accept(drain(rest)), "sperli-launcher-watch");
        watch.setDaemon(true);
        watch.start();
    }

    /** Reads {@code rest} to its end; returns how it ended. */
    static String drain(InputStream rest) {
        byte[] drain = new byte[DRAIN_BUFFER];
        try {
            while (rest.read(drain) >= 0) {
                // Nothing follows the line in this protocol; whatever does is not kept.
            }
            return CLOSED;
        } catch (IOException e) {
            return "standard input failed: " + (e.getMessage() != null ? e.getMessage() : e.getClass().getName());
        }
    }
}
