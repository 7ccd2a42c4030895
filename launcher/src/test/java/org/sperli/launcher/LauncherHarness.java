package org.sperli.launcher;

import org.sperli.launcher.command.LaunchEnvironment;
import org.sperli.launcher.command.SperliCommand;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Assumptions;
import org.sperli.launcher.demo.JobJars;
import org.sperli.launcher.job.EphemeralPorts;
import org.sperli.launcher.job.EphemeralRange;
import org.sperli.launcher.testjob.TestJob;
import picocli.CommandLine;

/**
 * Runs {@code sperli} in-process through {@link SperliCommand#commandLine(PrintWriter, PrintWriter,
 * LaunchEnvironment)} with captured output, a bounded wait, and checks that no child process is left.
 */
public final class LauncherHarness {
    /** JVM options for rank JVMs in tests: C1 only and the serial GC start a short rank in about half the CPU. */
    public static final String RANK_JAVA_OPTS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC";
    /** Longest a test job may take, start to summary, on a loaded 2-core machine. */
    public static final Duration RUN_LIMIT = Duration.ofSeconds(150);

    private LauncherHarness() {
    }

    /** What a run printed and returned. */
    public record Run(int exitCode, String out, String err, SperliCommand command) {
        public List<String> errLines() {
            return err.isEmpty() ? List.of() : List.of(err.split("\n"));
        }
    }

    /** The test environment: only the rank JVM options, plus {@code extra}. */
    public static LaunchEnvironment environment(Map<String, String> extra) {
        Map<String, String> env = new java.util.HashMap<>(extra);
        env.putIfAbsent("SPERLI_RANKD_JAVA_OPTS", RANK_JAVA_OPTS);
        return new LaunchEnvironment(env, false);
    }

    /** Runs and waits at most {@link #RUN_LIMIT}. */
    public static Run run(LaunchEnvironment env, String... args) {
        return run(env, line -> { }, command -> { }, args);
    }

    /**
     * Runs with {@code outLines} seeing every stdout line as it is printed and {@code started} getting the command
     * before it runs (to stop it from outside).
     */
    public static Run run(LaunchEnvironment env, Consumer<String> outLines, Consumer<SperliCommand> started,
                          String... args) {
        return run(env, outLines, line -> { }, started, args);
    }

    /** As {@link #run(LaunchEnvironment, Consumer, Consumer, String...)}, with {@code errLines} seeing stderr. */
    public static Run run(LaunchEnvironment env, Consumer<String> outLines, Consumer<String> errLines,
                          Consumer<SperliCommand> started, String... args) {
        return run(RUN_LIMIT, env, outLines, errLines, started, args);
    }

    /**
     * As {@link #run(LaunchEnvironment, String...)}, waiting at most {@code limit}: for a job of many ranks, whose
     * JVMs share this machine's two cores (32 ranks take about a minute per incarnation here).
     */
    public static Run run(Duration limit, LaunchEnvironment env, String... args) {
        return run(limit, env, line -> { }, line -> { }, command -> { }, args);
    }

    private static Run run(Duration limit, LaunchEnvironment env, Consumer<String> outLines,
                           Consumer<String> errLines, Consumer<SperliCommand> started, String... args) {
        LineWriter out = new LineWriter(outLines);
        LineWriter err = new LineWriter(errLines);
        CommandLine cl = SperliCommand.commandLine(new PrintWriter(out, true), new PrintWriter(err, true), env);
        SperliCommand command = cl.getCommand();
        started.accept(command);
        ExecutorService executor = Executors.newSingleThreadExecutor();
        try {
            Future<Integer> code = executor.submit(() -> cl.execute(args));
            int exit = code.get(limit.toSeconds(), TimeUnit.SECONDS);
            return new Run(exit, out.text(), err.text(), command);
        } catch (TimeoutException e) {
            command.jobControl().stopAll(Duration.ofSeconds(15));
            killDescendants();
            return fail("sperli " + String.join(" ", args) + " did not end within " + limit + "; out:\n"
                    + out.text() + "\nerr:\n" + err.text());
        } catch (InterruptedException | ExecutionException e) {
            killDescendants();
            return fail(e);
        } finally {
            executor.shutdownNow();
        }
    }

    /** Asserts that this JVM has no child process left, waiting up to 10 s for ranks to be reaped. */
    public static void assertNoProcessLeft() {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        List<ProcessHandle> left = descendants();
        while (!left.isEmpty() && System.nanoTime() < deadline) {
            sleep(100);
            left = descendants();
        }
        if (!left.isEmpty()) {
            String shown = left.stream().map(p -> p.pid() + " " + CommandLines.of(p)).toList()
                    .toString();
            killDescendants();
            fail("processes left behind: " + shown);
        }
    }

    /** Kills every child process of this JVM (test clean-up after a failure). */
    public static void killDescendants() {
        descendants().forEach(ProcessHandle::destroyForcibly);
    }

    public static List<ProcessHandle> descendants() {
        return ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).toList();
    }

    /** Ports free now below this host's ephemeral range (the demo's own probe). */
    public static List<Integer> freePorts(int n) throws IOException {
        return org.sperli.launcher.command.LocalHosts.freePorts(n);
    }

    /**
     * A port P such that P..P+n-1 are free on loopback now and lie below this host's ephemeral range, for
     * --port-base (ranks on one host get consecutive ports). Tries a bounded number of random starting points.
     */
    public static int freePortRange(int n) throws IOException {
        Optional<EphemeralRange> ephemeral = EphemeralPorts.ofThisHost();
        for (int attempt = 0; attempt < 50; attempt++) {
            int base = freePorts(1).get(0);
            if (base + n - 1 <= 65535 && ephemeral.map(r -> !r.overlaps(base, n)).orElse(true)
                    && rangeFree(base, n)) {
                return base;
            }
        }
        return fail("no " + n + " consecutive free ports found");
    }

    /**
     * This host's ephemeral port range, read as the launcher reads it; the test is skipped on a host without the file
     * (not Linux), and fails where the file is there and the launcher cannot read it.
     */
    public static EphemeralRange ephemeralRange() {
        Path file = EphemeralPorts.PROC_IPV4.resolve(EphemeralPorts.RANGE_FILE);
        Assumptions.assumeTrue(java.nio.file.Files.isReadable(file), "this host has no " + file);
        return EphemeralPorts.ofThisHost().orElseThrow(() -> new AssertionError(file + " is there but not read"));
    }

    /** The lowest port P of {@code range} such that the kernel may give P and P+1 to outgoing connections. */
    public static int twoEphemeralPorts(EphemeralRange range) {
        return IntStream.rangeClosed(range.ports().first(), range.ports().last() - 1)
                .filter(p -> range.takes(p) && range.takes(p + 1)).findFirst().orElseThrow();
    }

    private static boolean rangeFree(int base, int n) {
        List<java.net.ServerSocket> held = new ArrayList<>();
        try {
            for (int port = base; port < base + n; port++) {
                held.add(new java.net.ServerSocket(port, 1, java.net.InetAddress.getLoopbackAddress()));
            }
            return true;
        } catch (IOException e) {
            return false;
        } finally {
            for (java.net.ServerSocket s : held) {
                try {
                    s.close();
                } catch (IOException e) {
                    // closing a probe socket: nothing to keep
                }
            }
        }
    }

    /** {@code h0:p0,h1:p1,...} over {@code names} in turn. */
    public static String hosts(List<Integer> ports, String... names) {
        List<String> entries = new ArrayList<>();
        for (int i = 0; i < ports.size(); i++) {
            entries.add(names[i % names.length] + ":" + ports.get(i));
        }
        return String.join(",", entries);
    }

    /** The test job jar, written now with java.util.jar from {@link TestJob}. */
    public static Path testJar(Path dir) throws IOException {
        return JobJars.write(dir.resolve("test-job.jar"), TestJob.class);
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Collects text and hands every finished line to a watcher. */
    private static final class LineWriter extends Writer {
        private final StringBuilder all = new StringBuilder();
        private final StringBuilder line = new StringBuilder();
        private final Consumer<String> watcher;

        LineWriter(Consumer<String> watcher) {
            this.watcher = watcher;
        }

        @Override
        public void write(char[] buf, int off, int len) {
            List<String> done = new ArrayList<>();
            synchronized (this) {
                all.append(buf, off, len);
                for (int i = off; i < off + len; i++) {
                    if (buf[i] == '\n') {
                        done.add(line.toString());
                        line.setLength(0);
                    } else {
                        line.append(buf[i]);
                    }
                }
            }
            done.forEach(watcher);
        }

        synchronized String text() {
            return all.toString();
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }
}
