package org.sperli.rankd.agent;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.sperli.control.ControlFrame;
import org.sperli.control.ControlFrame.RankRef;
import org.sperli.control.ControlFrames;
import org.sperli.jobspec.RankTmpdir;

/**
 * One rank the agent started: its process, the threads that pass its output on, and its private temporary directory.
 * Its standard input gets the description line and then stays open, untouched, until the rank ends (protocol section
 * 13.1): if the agent dies, the rank reads the end of it and stops.
 */
final class RankChild {
    /** How long a rank's output may go on after the rank ended (a grandchild holding the pipe) before it is cut. */
    static final long OUTPUT_DRAIN_MS = 2000;
    private static final int READ_BUFFER = 32 * 1024;

    private final RankRef ref;
    private final Process process;
    private final Path directory;
    private final CompletableFuture<Void> ended = new CompletableFuture<>();
    /** Orders OUTPUT before EXITED: a pump forwards only while EXITED has not been sent. */
    private final Object reporting = new Object();
    private boolean exitedSent;

    private RankChild(RankRef ref, Process process, Path directory) {
        this.ref = ref;
        this.process = process;
        this.directory = directory;
    }

    /**
     * Starts the rank of {@code start} with {@code directory} as its temporary directory, hands it its description
     * (on a thread of its own, since a rank that does not read would block the agent) and reports to {@code outbox}:
     * STARTED now, OUTPUT as it comes, EXITED once it ended and its output is through; then the directory goes.
     *
     * @throws IOException when the process cannot be started (the caller sends FAILED)
     */
    static RankChild start(ControlFrame.Start start, Path directory, FrameOutbox outbox) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(start.argv());
        Map<String, String> env = builder.environment();
        for (String change : start.env()) {
            int eq = change.indexOf('=');
            if (eq < 0) {
                env.remove(change);
            } else {
                env.put(change.substring(0, eq), change.substring(eq + 1));
            }
        }
        env.put(RankTmpdir.VARIABLE, directory.toString());
        env.put("TMPDIR", directory.toString());
        Process process = builder.start();
        RankChild child = new RankChild(start.ref(), process, directory);
        outbox.started(start.ref(), process.pid());
        child.handOver(start);
        CompletableFuture<Void> out = child.pump(process.getInputStream(), ControlFrames.STDOUT, outbox);
        CompletableFuture<Void> err = child.pump(process.getErrorStream(), ControlFrames.STDERR, outbox);
        CompletableFuture<Void> drained = CompletableFuture.allOf(out, err);
        process.onExit()
                .thenCompose(p -> drained.completeOnTimeout(null, OUTPUT_DRAIN_MS, TimeUnit.MILLISECONDS))
                .thenRun(() -> child.finish(outbox));
        return child;
    }

    RankRef ref() {
        return ref;
    }

    /** Completes once the rank was reported as exited and its directory removed. */
    CompletableFuture<Void> ended() {
        return ended;
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Whether its EXITED was sent: from then on the rank is not running, and a START of it is no duplicate. */
    boolean exitedSent() {
        synchronized (reporting) {
            return exitedSent;
        }
    }

    /** SIGTERM or SIGKILL to the rank's process (never a close of its standard input, which the rank reads as news). */
    void signal(int signal) {
        if (signal == ControlFrames.SIGKILL) {
            process.toHandle().destroyForcibly();
        } else {
            process.toHandle().destroy();
        }
    }

    private void handOver(ControlFrame.Start start) {
        OutputStream stdin = process.getOutputStream();
        Thread t = new Thread(() -> {
            try {
                stdin.write(start.description());
                stdin.flush();
            } catch (IOException e) {
                // The rank ended before it read its line; its status and stderr say why.
            } finally {
                start.wipe();
            }
        }, "sperli-agent-stdin-" + ref.rank());
        t.setDaemon(true);
        t.start();
    }

    private CompletableFuture<Void> pump(InputStream in, int stream, FrameOutbox outbox) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            // One buffer: the outbox copies the bytes into their frame before it returns.
            byte[] buffer = new byte[READ_BUFFER];
            try (in) {
                while (true) {
                    int n = in.read(buffer);
                    if (n < 0) {
                        break;
                    }
                    if (n > 0 && !forward(stream, buffer, n, outbox)) {
                        // EXITED is out (a grandchild held the pipe past the drain limit): nothing more is sent,
                        // and the pipe is closed.
                        break;
                    }
                }
            } catch (IOException e) {
                // The pipe closed under us: the process is gone, nothing more to read.
            } finally {
                done.complete(null);
            }
        }, "sperli-agent-" + (stream == ControlFrames.STDOUT ? "out-" : "err-") + ref.rank());
        t.setDaemon(true);
        t.start();
        return done;
    }

    /** OUTPUT of {@code buffer[0, n)}, unless EXITED was sent; whether it was forwarded. */
    private boolean forward(int stream, byte[] buffer, int n, FrameOutbox outbox) {
        synchronized (reporting) {
            if (exitedSent) {
                return false;
            }
            outbox.output(ref, stream, buffer, n);
            return true;
        }
    }

    private void finish(FrameOutbox outbox) {
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            // The pipe of an ended process.
        }
        synchronized (reporting) {
            exitedSent = true;
            outbox.exited(ref, process.exitValue() & 0xff);
        }
        AgentDirectory.remove(directory);
        ended.complete(null);
    }

    /** For messages. */
    @Override
    public String toString() {
        return ref + " pid " + process.pid();
    }
}
