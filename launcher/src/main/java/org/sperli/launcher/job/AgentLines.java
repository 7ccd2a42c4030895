package org.sperli.launcher.job;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import org.sperli.launcher.report.Console;

/**
 * Passes a host agent's own diagnostic lines (its stderr) to the console, each prefixed with the host, on a daemon
 * thread: an agent says only what went wrong on its side (a refused frame, a rank it could not end).
 */
public final class AgentLines {
    /** The longest agent line passed on; the rest of a longer one is cut. */
    static final int MAX_LINE = 1000;

    private AgentLines() {
    }

    public static void pump(InputStream stderr, String host, Console console) {
        Thread t = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(stderr, StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    if (!line.isBlank()) {
                        console.note("host agent on " + host + ": "
                                + (line.length() > MAX_LINE ? line.substring(0, MAX_LINE) + "..." : line));
                    }
                }
            } catch (IOException e) {
                // The agent is gone; its stream's end says the rest.
            }
        }, "sperli-agent-stderr-" + host);
        t.setDaemon(true);
        t.start();
    }
}
