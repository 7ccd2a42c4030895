package org.sperli.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A command a benchmark runs (the launch benchmark's with {@code JAVA_HOME} set, launchcost's fresh JVMs, checkpoint's
 * dd), its output (both streams) going to a temporary file, not a pipe read to its end: so that the bound holds even
 * for a child that hangs with its output open. A child past its bound is ended before {@link #finish} returns; the
 * file is removed either way.
 */
final class BoundedChild {
    /** How the command ended: wall seconds from its start, whether it ended by itself, its exit status, its output. */
    record Finished(double seconds, boolean endedInTime, int status, String output) {
    }

    private final Process process;
    private final Path outputFile;
    private final long startNanos;

    private BoundedChild(Process process, Path outputFile, long startNanos) {
        this.process = process;
        this.outputFile = outputFile;
        this.startNanos = startNanos;
    }

    static BoundedChild start(List<String> command, String javaHome) throws IOException {
        return start(command, Optional.of(javaHome));
    }

    /** A command that runs in this process's environment. */
    static BoundedChild start(List<String> command) throws IOException {
        return start(command, Optional.empty());
    }

    private static BoundedChild start(List<String> command, Optional<String> javaHome) throws IOException {
        Path outputFile = Files.createTempFile("sperli-bench-", ".out");
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(outputFile.toFile());
        javaHome.ifPresent(home -> pb.environment().put("JAVA_HOME", home));
        long start = System.nanoTime();
        try {
            return new BoundedChild(pb.start(), outputFile, start);
        } catch (IOException e) {
            Files.deleteIfExists(outputFile);
            throw e;
        }
    }

    Process process() {
        return process;
    }

    /** Waits at most {@code timeoutSeconds} for the command to end, ending it past that. */
    Finished finish(long timeoutSeconds) throws IOException, InterruptedException {
        try {
            boolean ended = process.waitFor(timeoutSeconds, TimeUnit.SECONDS);
            double seconds = (System.nanoTime() - startNanos) / 1e9;
            if (!ended) {
                process.destroyForcibly().waitFor();
            }
            return new Finished(seconds, ended, process.exitValue(),
                    Files.readString(outputFile, StandardCharsets.UTF_8));
        } finally {
            if (process.isAlive()) {
                process.destroyForcibly();
            }
            Files.deleteIfExists(outputFile);
        }
    }
}
