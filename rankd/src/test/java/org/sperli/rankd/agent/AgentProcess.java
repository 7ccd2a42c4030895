package org.sperli.rankd.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.sperli.control.ControlFrame;
import org.sperli.control.ControlFrame.RankRef;
import org.sperli.control.ControlFrameReader;
import org.sperli.control.ControlFrames;
import org.sperli.jobspec.DescriptionLine;
import org.sperli.rankd.Main;

/**
 * One real host agent, {@code java -cp <rankd's class path> org.sperli.rankd.Main --host-agent ...}, driven as a
 * launcher drives it: frames written to its standard input, its standard output read by a {@link ControlFrameReader}
 * of the agent's direction on a thread of its own (so that every wait for a frame is bounded), its standard error
 * kept in a file. Its {@code java.io.tmpdir} is a directory the test gives, where its {@code sperli-agent-<pid>-*}
 * directory appears. {@link #close} kills the agent and every process it started that still runs.
 */
final class AgentProcess implements AutoCloseable {
    /** The agent's JVM options, as the launcher's local agent has them. */
    private static final List<String> JVM_OPTIONS = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx96m",
            "-XX:-UsePerfData");
    /** How long a JVM start may take on two busy cores (READY, a command line refused). */
    static final Duration START_BOUND = Duration.ofSeconds(30);
    /** How long any other frame may take. */
    static final Duration FRAME_BOUND = Duration.ofSeconds(10);
    /** What the agent's stderr lines start with when it refuses its control stream. */
    static final String REFUSED_PREFIX = "sperli-rankd --host-agent: control stream refused:";
    /** A variable in the agent's environment, for a START to remove from its rank's. */
    static final String INHERITED = "SPERLI_AGENT_TEST_INHERITED";

    /** One thing read from the agent's standard output: a frame, or its end ({@code end} says how it ended). */
    private record Received(ControlFrame frame, String end) {
    }

    final Process process;
    final Path tmpdir;
    private final Path stderrFile;
    private final OutputStream toAgent;
    private final BlockingQueue<Received> received = new LinkedBlockingQueue<>();
    /** Pids of the ranks the agent reported as started, so that {@link #close} can end them whatever happened. */
    private final Set<Long> rankPids = ConcurrentHashMap.newKeySet();
    private final Map<RankRef, ByteArrayOutputStream[]> output = new HashMap<>();
    private boolean ended;

    private AgentProcess(Process process, Path tmpdir, Path stderrFile) {
        this.process = process;
        this.tmpdir = tmpdir;
        this.stderrFile = stderrFile;
        this.toAgent = process.getOutputStream();
        Thread reader = new Thread(() -> read(process.getInputStream()), "agent-frames-" + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    /** {@code --host-agent --host localhost}, its temporary directory {@code tmpdir}, its stderr in {@code logDir}. */
    static AgentProcess start(Path tmpdir, Path logDir) throws IOException {
        return start(tmpdir, logDir, List.of("--host-agent", "--host", "localhost"));
    }

    /** The agent's main class with {@code args} (the first should be {@code --host-agent}). */
    static AgentProcess start(Path tmpdir, Path logDir, List<String> args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JVM_OPTIONS);
        command.add("-Djava.io.tmpdir=" + tmpdir);
        command.add("-cp");
        command.add(classPath());
        command.add(Main.class.getName());
        command.addAll(args);
        Path stderr = Files.createTempFile(Files.createDirectories(logDir), "agent-", ".stderr");
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(stderr.toFile());
        builder.environment().put(INHERITED, "inherited");
        return new AgentProcess(builder.start(), tmpdir, stderr);
    }

    /** This JVM's class path without the test classes: rankd's classes and the libraries it needs. */
    private static String classPath() {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !Path.of(entry).endsWith("test-classes"))
                .collect(Collectors.joining(File.pathSeparator));
    }

    private void read(InputStream in) {
        ControlFrameReader reader = new ControlFrameReader(in, false);
        try {
            for (ControlFrame f = reader.next(); f != null; f = reader.next()) {
                if (f instanceof ControlFrame.Started started) {
                    rankPids.add(started.pid());
                }
                received.add(new Received(f, null));
            }
            received.add(new Received(null, "end"));
        } catch (IOException e) {
            received.add(new Received(null, "unreadable: " + e.getMessage()));
        }
    }

    // Launcher to agent.

    void start(int rank, long incarnation, List<String> argv, List<String> env, DescriptionLine line)
            throws IOException {
        try {
            ControlFrames.writeStart(toAgent, rank, incarnation, argv, env, line);
            toAgent.flush();
        } finally {
            line.wipe();
        }
    }

    /** A START of a shell rank: {@code /bin/sh -c script}. */
    void startShell(int rank, long incarnation, String script, DescriptionLine line) throws IOException {
        start(rank, incarnation, List.of("/bin/sh", "-c", script), List.of(), line);
    }

    void signal(int rank, long incarnation, int signal) throws IOException {
        ControlFrames.writeSignal(toAgent, rank, incarnation, signal);
        toAgent.flush();
    }

    void shutdown() throws IOException {
        ControlFrames.writeShutdown(toAgent);
        toAgent.flush();
    }

    /** Any bytes, frames or not. */
    void send(byte[] bytes) throws IOException {
        toAgent.write(bytes);
        toAgent.flush();
    }

    /** The launcher gone: the end of the agent's standard input. */
    void closeInput() throws IOException {
        toAgent.close();
    }

    // Agent to launcher.

    /** The next frame within {@code bound}; fails at the end of the stream or when none comes. */
    ControlFrame next(Duration bound) throws InterruptedException, IOException {
        Optional<ControlFrame> frame = poll(bound);
        if (frame.isEmpty()) {
            fail("no frame from the agent within " + bound + "; its stderr:\n" + stderr());
        }
        return frame.get();
    }

    ControlFrame next() throws InterruptedException, IOException {
        return next(FRAME_BOUND);
    }

    /** The next frame, or empty when none comes within {@code bound}; fails at the end of the stream. */
    Optional<ControlFrame> poll(Duration bound) throws InterruptedException, IOException {
        if (ended) {
            fail("the agent's stream has ended already");
        }
        Received r = received.poll(bound.toMillis(), TimeUnit.MILLISECONDS);
        if (r == null) {
            return Optional.empty();
        }
        if (r.frame() == null) {
            ended = true;
            fail("the agent's stream ended (" + r.end() + ") where a frame was expected; its stderr:\n" + stderr());
        }
        if (r.frame() instanceof ControlFrame.Output o) {
            output.computeIfAbsent(o.ref(), ref -> new ByteArrayOutputStream[] {new ByteArrayOutputStream(),
                    new ByteArrayOutputStream()})[o.stream() - 1].writeBytes(o.data());
        }
        return Optional.of(r.frame());
    }

    /** READY within the start bound: version 1 and the agent's pid. */
    void awaitReady() throws InterruptedException, IOException {
        ControlFrame.Ready ready = assertInstanceOf(ControlFrame.Ready.class, next(START_BOUND), "the first frame");
        assertEquals(new ControlFrame.Ready(ControlFrames.VERSION, process.pid()), ready);
    }

    /** The next frame: STARTED of {@code ref}; its pid. */
    long awaitStarted(RankRef ref) throws InterruptedException, IOException {
        ControlFrame.Started started = assertInstanceOf(ControlFrame.Started.class, next(), "STARTED of " + ref);
        assertEquals(ref, started.ref());
        return started.pid();
    }

    /** Frames of {@code ref} up to its EXITED, only OUTPUT before it; the status. */
    int awaitExited(RankRef ref) throws InterruptedException, IOException {
        while (true) {
            ControlFrame f = next();
            if (f instanceof ControlFrame.Exited exited && exited.ref().equals(ref)) {
                return exited.status();
            }
            assertTrue(f instanceof ControlFrame.Output o && o.ref().equals(ref), "before the EXITED of " + ref
                    + " only its OUTPUT, not " + f);
        }
    }

    /** OUTPUT frames of {@code ref} until its {@code stream} so far holds {@code text}; other frames fail. */
    void awaitOutput(RankRef ref, int stream, String text) throws InterruptedException, IOException {
        while (!output(ref, stream).contains(text)) {
            ControlFrame f = next();
            assertTrue(f instanceof ControlFrame.Output o && o.ref().equals(ref), "waiting for '" + text + "' from "
                    + ref + " (so far '" + output(ref, stream) + "'), got " + f);
        }
    }

    /** All that {@code ref} wrote to {@code stream} in the frames read so far. */
    String output(RankRef ref, int stream) {
        ByteArrayOutputStream[] both = output.get(ref);
        return both == null ? "" : both[stream - 1].toString(StandardCharsets.UTF_8);
    }

    /** The clean end of the stream within {@code bound}, with no frame before it. */
    void awaitEnd(Duration bound) throws InterruptedException, IOException {
        Received r = received.poll(bound.toMillis(), TimeUnit.MILLISECONDS);
        if (r == null) {
            fail("the agent's stream did not end within " + bound + "; its stderr:\n" + stderr());
        }
        assertEquals(null, r.frame(), "a frame where the end of the stream was expected");
        assertEquals("end", r.end(), "the agent's stream ends cleanly between frames");
        ended = true;
    }

    /** The exit status; fails when the agent does not end within {@code bound}. */
    int exitStatus(Duration bound) throws InterruptedException, IOException {
        if (!process.waitFor(bound.toMillis(), TimeUnit.MILLISECONDS)) {
            fail("the agent still runs after " + bound + "; its stderr:\n" + stderr());
        }
        return process.exitValue();
    }

    String stderr() throws IOException {
        return Files.readString(stderrFile, StandardCharsets.UTF_8);
    }

    List<String> stderrLines() throws IOException {
        return stderr().lines().toList();
    }

    /** Nothing on stderr looks like a Java stack trace or an uncaught exception. */
    void assertNoStackTrace() throws IOException {
        String err = stderr();
        assertTrue(err.lines().noneMatch(l -> l.startsWith("\tat ") || l.startsWith("Exception in thread")
                || l.startsWith("Caused by:")), "a stack trace on the agent's stderr:\n" + err);
    }

    // Directories and processes.

    /** The agent's own directory, {@code sperli-agent-<pid>-*} in its temporary directory (exactly one). */
    Path directory() throws IOException {
        List<Path> own = agentDirectories(tmpdir).stream()
                .filter(p -> p.getFileName().toString().startsWith(AgentDirectory.PREFIX + process.pid() + "-"))
                .toList();
        assertEquals(1, own.size(), "the directories of agent " + process.pid() + " in " + tmpdir);
        return own.get(0);
    }

    /** Every {@code sperli-agent-*} entry of {@code tmpdir}. */
    static List<Path> agentDirectories(Path tmpdir) throws IOException {
        List<Path> found = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(tmpdir, AgentDirectory.PREFIX + "*")) {
            entries.forEach(found::add);
        }
        return found;
    }

    /**
     * Whether process {@code pid} has ended. A zombie counts as ended: a rank orphaned by a killed agent is reaped by
     * whatever the container's process 1 is, which need not reap at all, and {@link ProcessHandle#isAlive} is true
     * for a zombie.
     */
    static boolean ended(long pid) {
        Optional<ProcessHandle> handle = ProcessHandle.of(pid);
        if (handle.isEmpty() || !handle.get().isAlive()) {
            return true;
        }
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return stat.charAt(stat.lastIndexOf(')') + 2) == 'Z';
        } catch (IOException | RuntimeException e) {
            return true;
        }
    }

    /** Waits up to {@code bound} for {@code condition}; whether it came. */
    static boolean within(Duration bound, Condition condition) throws InterruptedException, IOException {
        long deadline = System.nanoTime() + bound.toNanos();
        while (true) {
            if (condition.holds()) {
                return true;
            }
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread.sleep(20);
        }
    }

    @FunctionalInterface
    interface Condition {
        boolean holds() throws IOException;
    }

    /** Kills the agent and whatever it started that still runs (a failed test leaves nothing behind). */
    @Override
    public void close() {
        List<ProcessHandle> left = new ArrayList<>(process.descendants().toList());
        rankPids.forEach(pid -> ProcessHandle.of(pid).ifPresent(left::add));
        left.forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            toAgent.close();
        } catch (IOException e) {
            // The agent is gone.
        }
    }
}
