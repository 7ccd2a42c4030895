package org.sperli.runtime;

import io.netty.handler.codec.DecoderException;
import io.netty.handler.ssl.NotSslRecordException;
import java.net.SocketAddress;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The lines a rank writes about connections it refused before they could join (strangers, plaintext, failed
 * handshakes): one short line each, who and why, at most {@link #BURST} in any {@link #WINDOW_MS}; beyond that they
 * are counted, and the count is said with the next line allowed. A stranger who floods a rank's port cannot flood the
 * operator's terminal, and no stack trace is printed at all.
 */
final class RefusedConnections {
    static final int BURST = 5;
    static final long WINDOW_MS = 1000;
    /** Longer reasons are cut: a stranger's bytes can end up in an exception message. */
    static final int MAX_REASON_CHARS = 160;

    private final LongSupplier nanoTime;
    private final Consumer<String> log;
    private long windowStartNs;
    private int linesInWindow;
    private long notShown;

    RefusedConnections(LongSupplier nanoTime, Consumer<String> log) {
        this.nanoTime = nanoTime;
        this.log = log;
    }

    synchronized void refused(SocketAddress from, Throwable why) {
        long now = nanoTime.getAsLong();
        if (linesInWindow == 0 || now - windowStartNs >= TimeUnit.MILLISECONDS.toNanos(WINDOW_MS)) {
            windowStartNs = now;
            linesInWindow = 0;
        }
        if (linesInWindow >= BURST) {
            notShown++;
            return;
        }
        linesInWindow++;
        String earlier = notShown == 0 ? "" : " (and " + notShown + " refused before it, not shown)";
        notShown = 0;
        log.accept("refused a connection from " + from + ": " + reason(why) + earlier);
    }

    /** Why, in a few words on one line. */
    static String reason(Throwable why) {
        Throwable t = why instanceof DecoderException && why.getCause() != null ? why.getCause() : why;
        if (t instanceof NotSslRecordException) {
            return "not a TLS record (plaintext or another protocol)";
        }
        if (t instanceof ClosedChannelException) {
            return "closed during the TLS handshake";
        }
        String message = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
        String line = message.replaceAll("[\\r\\n\\t]+", " ").strip();
        return line.length() <= MAX_REASON_CHARS ? line : line.substring(0, MAX_REASON_CHARS) + "...";
    }
}
