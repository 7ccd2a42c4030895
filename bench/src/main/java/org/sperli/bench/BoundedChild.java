package org.sperli.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A command the launch benchmark runs, with {@code JAVA_HOME} set, its output (both streams) going to a temporary file,
 * not a pipe read to its end: so that the bound holds even for a child that hangs with its output open. A child past
 * its bound is ended before {@link #finish} returns; the file is removed either way.
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
        Path outputFile = Files.createTempFile("sperli-bench-", ".out");
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(outputFile.toFile());
        pb.environment().put("JAVA_HOME", javaHome);
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
