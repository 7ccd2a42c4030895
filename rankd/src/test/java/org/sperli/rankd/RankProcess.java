package org.sperli.rankd;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.sperli.crypto.AccpLibrary;

/**
 * One real {@code sperli-rankd} process, started with this test JVM's java and class path minus the test classes
 * (so a job class can come only from its jar). Its standard output and error go to files; its
 * {@code java.io.tmpdir} is a directory of its own, so a test can watch the PEM directory come and go.
 * {@link #close} kills it if it still runs.
 */
final class RankProcess implements AutoCloseable {
    private static final List<String> JVM_OPTIONS = List.of(
            // Short-lived ranks on two shared cores: start fast rather than peak. Native access as every rank command
            // gives it: without it JDK 22 and later print four warning lines when the native crypto loads.
            "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xss512k", "-Xmx256m", AccpLibrary.NATIVE_ACCESS);

    final String name;
    final Process process;
    final Path stdout;
    final Path stderr;
    final Path tmpdir;

    private RankProcess(String name, Process process, Path stdout, Path stderr, Path tmpdir) {
        this.name = name;
        this.process = process;
        this.stdout = stdout;
        this.stderr = stderr;
        this.tmpdir = tmpdir;
    }

    /** Starts rankd with {@code args} and {@code extraEnv}; files go under {@code workDir/name}. */
    static RankProcess start(Path workDir, String name, List<String> args, Map<String, String> extraEnv)
            throws IOException {
        return start(workDir, name, List.of(), args, extraEnv);
    }

    /** As {@link #start(Path, String, List, Map)}, the command run through {@code wrapper} (e.g. prlimit). */
    static RankProcess start(Path workDir, String name, List<String> wrapper, List<String> args,
                             Map<String, String> extraEnv) throws IOException {
        Path dir = Files.createDirectories(workDir.resolve(name));
        Path tmpdir = Files.createDirectories(dir.resolve("tmp"));
        List<String> command = new ArrayList<>(wrapper);
        command.add(javaCommand());
        command.addAll(JVM_OPTIONS);
        command.add("-Djava.io.tmpdir=" + tmpdir);
        command.add("-cp");
        command.add(rankClassPath());
        command.add(Main.class.getName());
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectOutput(dir.resolve("stdout").toFile())
                .redirectError(dir.resolve("stderr").toFile());
        builder.environment().remove(Report.DEBUG_VARIABLE);
        builder.environment().remove("SPERLI_REFUSED_HOSTS");
        builder.environment().putAll(extraEnv);
        return new RankProcess(name, builder.start(), dir.resolve("stdout"), dir.resolve("stderr"), tmpdir);
    }

    /**
     * Writes the description line (or any bytes) to standard input and keeps it open, as a launcher does while it
     * lives; {@link #closeInput} is the launcher going away.
     */
    void feed(byte[] line) throws IOException {
        OutputStream in = process.getOutputStream();
        try {
            in.write(line);
            in.flush();
        } finally {
            Arrays.fill(line, (byte) 0);
        }
    }

    /** Closes standard input: the rank's launcher is gone. */
    void closeInput() throws IOException {
        process.getOutputStream().close();
    }

    /** The exit status; fails when the process does not end within {@code bound}. */
    int exitStatus(Duration bound) throws InterruptedException, IOException {
        if (!process.waitFor(bound.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError(name + " still runs after " + bound + "; stderr:\n" + stderr());
        }
        return process.exitValue();
    }

    String stdout() throws IOException {
        return Files.readString(stdout, StandardCharsets.UTF_8);
    }

    String stderr() throws IOException {
        return Files.readString(stderr, StandardCharsets.UTF_8);
    }

    /** The last non-empty line of standard error, or "" when there is none. */
    String lastStderrLine() throws IOException {
        List<String> lines = stderr().lines().filter(l -> !l.isBlank()).toList();
        return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static String javaCommand() {
        return ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    /** This JVM's class path without the test classes: rankd's classes and every library it needs. */
    static String rankClassPath() {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !Path.of(entry).endsWith("test-classes"))
                .collect(Collectors.joining(File.pathSeparator));
    }
}
