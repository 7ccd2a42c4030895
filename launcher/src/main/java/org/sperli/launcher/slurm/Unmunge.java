package org.sperli.launcher.slurm;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Decodes a MUNGE credential with the {@code unmunge} program: munged checks its MAC, its time to live and that it
 * was not decoded before on this host, and says whose it is. A replayed credential still shows its UID, GID and
 * payload, with status 17: the status decides, never the payload alone.
 */
final class Unmunge {
    /** unmunge answers at once when munged runs; a hung daemon must not hang a call-home. */
    static final long WAIT_MS = 10_000;
    /** Output of a credential of at most {@link org.sperli.control.CallHome#MAX_CREDENTIAL} bytes, with room. */
    static final int MAX_OUTPUT = 16_384;

    /** What unmunge said: its exit status, the STATUS line, the UID and GID numbers (-1 when absent), the payload. */
    record Decoded(int exitStatus, String status, long uid, long gid, String payload) {
    }

    private final String program;

    Unmunge(String program) {
        this.program = program;
    }

    /** @throws IOException when unmunge cannot run or does not answer in time */
    Decoded decode(String credential) throws IOException {
        Process process = new ProcessBuilder(List.of(program)).redirectErrorStream(true).start();
        try (OutputStream in = process.getOutputStream(); InputStream out = process.getInputStream()) {
            in.write(credential.getBytes(StandardCharsets.US_ASCII));
            in.close();
            byte[] bytes = out.readNBytes(MAX_OUTPUT + 1);
            if (!process.waitFor(WAIT_MS, TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IOException(program + " did not answer within " + WAIT_MS / 1000 + " s");
            }
            if (bytes.length > MAX_OUTPUT) {
                throw new IOException(program + " said more than " + MAX_OUTPUT + " bytes");
            }
            return parse(process.exitValue(), new String(bytes, StandardCharsets.UTF_8));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IOException("interrupted while " + program + " ran", e);
        }
    }

    /** unmunge's output: {@code KEY: value} lines, an empty line, then the payload as it was given. */
    static Decoded parse(int exitStatus, String output) {
        int blank = output.indexOf("\n\n");
        String head = blank < 0 ? output : output.substring(0, blank);
        String payload = blank < 0 ? "" : output.substring(blank + 2);
        String status = "";
        long uid = -1;
        long gid = -1;
        for (String line : head.lines().toList()) {
            int colon = line.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String key = line.substring(0, colon).strip();
            String value = line.substring(colon + 1).strip();
            switch (key) {
                case "STATUS" -> status = value;
                case "UID" -> uid = number(value);
                case "GID" -> gid = number(value);
                default -> { }
            }
        }
        return new Decoded(exitStatus, status, uid, gid, payload);
    }

    /** {@code root (0)}: the number in the parentheses; -1 when there is none. */
    private static long number(String value) {
        int open = value.lastIndexOf('(');
        int close = value.lastIndexOf(')');
        if (open < 0 || close < open + 2) {
            return -1;
        }
        try {
            return Long.parseLong(value.substring(open + 1, close));
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
