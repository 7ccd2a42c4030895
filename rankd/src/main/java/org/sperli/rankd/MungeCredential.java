package org.sperli.rankd;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A MUNGE credential made by the node's {@code munged} through the {@code munge} program: it says who runs this
 * process (UID and GID, which munged knows from the socket) and carries a payload. The payload is no secret (it is on
 * the program's command line); the credential is good once, within its time to live.
 */
final class MungeCredential {
    /** munge answers at once when munged runs; a hung daemon must not hang the agent. */
    static final long WAIT_MS = 10_000;
    /** A credential of the call-home payload is well under this; more is not munge's output. */
    static final int MAX_OUTPUT = 4096;

    private MungeCredential() {
    }

    /** The credential of {@code payload}, or an IOException naming why there is none. */
    static String of(String program, String payload) throws IOException {
        Process process;
        try {
            process = new ProcessBuilder(List.of(program, "-s", payload)).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new IOException("cannot run " + program + " (is MUNGE installed on this node?): "
                    + e.getMessage(), e);
        }
        try (InputStream out = process.getInputStream()) {
            process.getOutputStream().close();
            byte[] bytes = out.readNBytes(MAX_OUTPUT + 1);
            if (!process.waitFor(WAIT_MS, TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IOException(program + " did not answer within " + WAIT_MS / 1000 + " s");
            }
            String text = new String(bytes, StandardCharsets.US_ASCII).strip();
            if (process.exitValue() != 0 || bytes.length > MAX_OUTPUT || text.isEmpty()) {
                String first = text.lines().findFirst().orElse("no output");
                throw new IOException(program + " failed (exit " + process.exitValue() + "): "
                        + first.substring(0, Math.min(first.length(), 200)));
            }
            return text;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IOException("interrupted while " + program + " ran", e);
        }
    }
}
