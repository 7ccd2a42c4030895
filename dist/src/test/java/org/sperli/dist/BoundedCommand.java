package org.sperli.dist;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs one command as an operator's shell would, with exactly the environment given (nothing of the build's leaks
 * in), standard input empty, and a time limit after which it and everything it started are killed and the test
 * fails. The command is looked up on that environment's PATH (through {@code env}: Java would search the PATH of
 * this JVM). Output goes to files, so a chatty command cannot block on a full pipe.
 */
final class BoundedCommand {
    /** What a command printed and how it ended. */
    record Result(int exitCode, String out, String err) {
        List<String> outLines() {
            return out.isEmpty() ? List.of() : List.of(out.split("\n"));
        }

        /** The whole result, for an assertion's message. */
        String shown() {
            return "exit " + exitCode + "\nstdout:\n" + out + "\nstderr:\n" + err;
        }
    }

    /** Runs a command found on the PATH of the environment it is given. */
    private static final String ENV = "/usr/bin/env";

    private final Path workDir;
    private final Map<String, String> env;
    private final Duration limit;

    BoundedCommand(Path workDir, Map<String, String> env, Duration limit) {
        this.workDir = workDir;
        this.env = Map.copyOf(env);
        this.limit = limit;
    }

    /** This command's environment with {@code name} set to {@code value} as well. */
    BoundedCommand with(String name, String value) {
        Map<String, String> more = new HashMap<>(env);
        more.put(name, value);
        return new BoundedCommand(workDir, more, limit);
    }

    Result run(String... argv) throws IOException, InterruptedException {
        Path out = Files.createTempFile(workDir, "out-", ".txt");
        Path err = Files.createTempFile(workDir, "err-", ".txt");
        try {
            List<String> command = new ArrayList<>();
            command.add(ENV);
            command.addAll(List.of(argv));
            ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                    .redirectOutput(out.toFile()).redirectError(err.toFile());
            builder.environment().clear();
            builder.environment().putAll(env);
            Process process = builder.start();
            if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                killWithDescendants(process.toHandle());
                fail(String.join(" ", argv) + " did not end within " + limit + "; stdout:\n" + read(out)
                        + "\nstderr:\n" + read(err));
            }
            return new Result(process.exitValue(), read(out), read(err));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /**
     * Processes whose command line names {@code marker} (a directory only this test uses) that are still alive
     * after a grace of {@code grace}: they are killed, and returned for a failure message. Searched among all
     * processes, not this JVM's descendants, since a rank whose launcher died belongs to init.
     */
    static List<String> killLeftovers(String marker, Duration grace) throws InterruptedException {
        long deadline = System.nanoTime() + grace.toNanos();
        List<ProcessHandle> left = running(marker);
        while (!left.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(100);
            left = running(marker);
        }
        left.forEach(ProcessHandle::destroyForcibly);
        return left.stream().map(p -> p.pid() + " " + p.info().commandLine().orElse("?")).toList();
    }

    private static List<ProcessHandle> running(String marker) {
        return ProcessHandle.allProcesses().filter(ProcessHandle::isAlive)
                .filter(p -> p.info().commandLine().map(line -> line.contains(marker)).orElse(false)).toList();
    }

    private static void killWithDescendants(ProcessHandle process) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }

    private static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8);
    }
}
