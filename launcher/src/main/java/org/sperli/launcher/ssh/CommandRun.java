package org.sperli.launcher.ssh;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One run of the operator's ssh program to its end ({@link CommandLogins}): its standard input the bytes of a file
 * or nothing, its standard output kept, of its standard error the last line that is not blank (what ssh says of a
 * failed login), all bounded by a time after which the program is killed.
 */
final class CommandRun {
    /** The most of the standard output and error kept: a probe prints a few hundred bytes. */
    static final int MAX_OUTPUT = 1 << 20;
    /**
     * How long the streams may stay open after the program ended: a process it left behind (an ssh master of
     * {@code ControlPersist} that did not let go of them) must not hold the launcher.
     */
    private static final long DRAIN_MS = 2000;

    /** How a run ended: its exit status, its standard output and the last line of its standard error. */
    record Result(int exitStatus, String out, String lastErrLine) {
    }

    private CommandRun() {
    }

    /**
     * Runs {@code argv} with {@code stdinOrNull}'s bytes on its standard input (none: closed at once).
     *
     * @throws IOException when the program cannot be started, with {@link TimedOut} when it has not ended within
     *         {@code bound} (it is killed), or the failure to write its input when it ended with status 0 anyway
     */
    static Result run(List<String> argv, Path stdinOrNull, Duration bound) throws IOException {
        Process process = new ProcessBuilder(argv).start();
        try {
            Drain out = new Drain(process.getInputStream(), "sperli-ssh-out");
            Drain err = new Drain(process.getErrorStream(), "sperli-ssh-err");
            CompletableFuture<Void> written = CompletableFuture.runAsync(() -> {
                try (OutputStream in = process.getOutputStream()) {
                    if (stdinOrNull != null) {
                        Files.copy(stdinOrNull, in);
                    }
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }, runnable -> daemon(runnable, "sperli-ssh-in"));
            if (!process.waitFor(bound.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new TimedOut("no end within " + bound.toSeconds() + " s");
            }
            int status = process.exitValue();
            if (status == 0 && stdinOrNull != null) {
                try {
                    written.get(DRAIN_MS, TimeUnit.MILLISECONDS);
                } catch (ExecutionException e) {
                    // The program ended well without reading all of its input: not a whole copy.
                    throw new IOException("the copy ended early: " + e.getCause().getMessage(), e.getCause());
                } catch (TimeoutException e) {
                    throw new IOException("the copy ended early", e);
                }
            }
            return new Result(status, out.text(), lastLine(err.text()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        } finally {
            if (process.isAlive()) {
                process.destroyForcibly();
            }
        }
    }

    /** The last line of {@code text} that is not blank, stripped; empty when there is none. */
    static String lastLine(String text) {
        String last = "";
        for (String line : text.split("\n")) {
            if (!line.isBlank()) {
                last = line.strip();
            }
        }
        return last;
    }

    /** The program did not end within its bound. */
    static final class TimedOut extends IOException {
        private static final long serialVersionUID = 1L;

        TimedOut(String message) {
            super(message);
        }
    }

    private static void daemon(Runnable runnable, String name) {
        Thread t = new Thread(runnable, name);
        t.setDaemon(true);
        t.start();
    }

    /** Reads a stream to its end on a thread of its own, keeping at most {@link #MAX_OUTPUT} bytes. */
    private static final class Drain {
        private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
        private final CompletableFuture<Void> done = new CompletableFuture<>();

        Drain(InputStream stream, String name) {
            daemon(() -> {
                byte[] buffer = new byte[8192];
                try (InputStream in = stream) {
                    int n;
                    while ((n = in.read(buffer)) >= 0) {
                        synchronized (kept) {
                            kept.write(buffer, 0, Math.max(0, Math.min(n, MAX_OUTPUT - kept.size())));
                        }
                    }
                } catch (IOException e) {
                    // What was read so far is what it said.
                }
                done.complete(null);
            }, name);
        }

        /** What the stream gave: all of it, or what came until {@link #DRAIN_MS} after the program ended. */
        String text() throws InterruptedException {
            try {
                done.get(DRAIN_MS, TimeUnit.MILLISECONDS);
            } catch (ExecutionException | TimeoutException e) {
                // Held open by another process: what came is what the program said.
            }
            synchronized (kept) {
                return kept.toString(StandardCharsets.UTF_8);
            }
        }
    }
}
