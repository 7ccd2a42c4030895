package org.sperli.rankd;

import java.io.IOException;
import java.io.InputStream;

/**
 * Watches the standard input a rank was started with, after its description line: the launcher keeps it open for as
 * long as it supervises the rank (locally a pipe, over SSH the channel), so its end means the launcher is gone,
 * killed or cut off, and nobody would read this rank's output or status any more (protocol section 11). Bytes after
 * the line are read and dropped a small buffer at a time.
 */
final class LauncherWatch {
    private static final int DRAIN_BUFFER = 256;

    private LauncherWatch() {
    }

    /** Starts a daemon thread that runs {@code onGone} once {@code rest} ends or fails. */
    static void start(InputStream rest, Runnable onGone) {
        Thread watch = new Thread(() -> {
            byte[] drain = new byte[DRAIN_BUFFER];
            try {
                while (rest.read(drain) >= 0) {
                    // Nothing follows the line in this protocol; whatever does is not kept.
                }
            } catch (IOException e) {
                // A broken pipe or channel is the same news as its end.
            }
            onGone.run();
        }, "sperli-launcher-watch");
        watch.setDaemon(true);
        watch.start();
    }
}
