package org.sperli.rankd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sperli.jvm.Clock;
import org.sperli.rankd.testjobs.HelloTestJob;
import org.sperli.rankd.testjobs.NoDefaultConstructorTestJob;
import org.sperli.rankd.testjobs.ThrowingTestJob;

/** A rank's refusals and one-rank jobs run in this JVM with captured streams: quick, no network. */
@Timeout(30)
class RankdInProcessTest {
    /** An input that gives no byte and ends only when {@code released} is counted down. */
    private static InputStream heldOpenUntil(CountDownLatch released) {
        return new InputStream() {
            @Override
            public int read() {
                try {
                    released.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return -1;
            }
        };
    }

    @TempDir
    Path dir;

    private record Result(int status, String stdout, String stderr) {
        String lastLine() {
            List<String> lines = stderr.lines().filter(l -> !l.isBlank()).toList();
            return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
        }

        boolean hasStackTrace() {
            return stderr.contains("\tat ") || stderr.contains("Exception in thread");
        }
    }

    private static Result run(byte[] stdin, Map<String, String> env, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        // A whole line, then an input that stays open as a living launcher's does (its end would stop the rank)
        // until the rank's life is over, so that its watch thread ends too; a cut line ends there, as when the
        // launcher died while writing it.
        boolean wholeLine = stdin.length > 0 && stdin[stdin.length - 1] == '\n';
        CountDownLatch lifeOver = new CountDownLatch(1);
        InputStream input = wholeLine ? new SequenceInputStream(new ByteArrayInputStream(stdin),
                heldOpenUntil(lifeOver)) : new ByteArrayInputStream(stdin);
        RankLife life = new RankLife(input, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), env, Clock.SYSTEM,
                new RecordedEnd());
        int status;
        try {
            status = life.run(args);
        } finally {
            lifeOver.countDown();
        }
        return new Result(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void nonHexDescriptionIsRefusedWithH1616AndNoStackTrace() {
        Result r = run(ascii("0100zz\n"), Map.of(), "job.jar");
        assertEquals(2, r.status());
        assertTrue(r.lastLine().startsWith("H1616 "), r.stderr());
        assertFalse(r.hasStackTrace(), r.stderr());
    }

    @Test
    void emptyInputIsRefusedWithH1616() {
        Result r = run(new byte[0], Map.of(), "job.jar");
        assertEquals(2, r.status());
        assertTrue(r.lastLine().startsWith("H1616 "), r.stderr());
    }

    @Test
    void stackTraceOnlyWithSperliDebug() {
        Result r = run(ascii("0100zz\n"), Map.of(Report.DEBUG_VARIABLE, "1"), "job.jar");
        assertEquals(2, r.status());
        assertTrue(r.hasStackTrace(), r.stderr());
        assertTrue(r.lastLine().startsWith("H1616 "), r.stderr());
    }

    @Test
    void commandLineWithoutJarIsRefusedWithUsage() {
        Result r = run(new byte[0], Map.of());
        assertEquals(2, r.status());
        assertTrue(r.stderr().contains("usage: sperli-rankd"), r.stderr());
        assertTrue(r.lastLine().startsWith("H1616 command line refused: no JAR given"), r.stderr());
    }

    @Test
    void aCheckpointDirectoryThatIsAFileIsRefusedWithH1616BeforeStandardInputIsRead() throws IOException {
        Path file = Files.writeString(dir.resolve("not-a-dir"), "x");
        Result r = run(ascii("0100zz\n"), Map.of(), "--checkpoint-dir", file.toString(), "job.jar");
        assertEquals(2, r.status());
        assertEquals("H1616 command line refused: --checkpoint-dir " + file + ": it is a file, not a directory",
                r.lastLine());
        assertFalse(r.hasStackTrace(), r.stderr());
    }

    @Test
    void anUnknownTlsEngineIsRefusedWithH1616BeforeStandardInputIsRead() {
        Result option = run(ascii("0100zz\n"), Map.of(), "--tls-engine", "openssl", "job.jar");
        assertEquals(2, option.status());
        assertEquals("H1616 command line refused: --tls-engine: TLS engine 'openssl' is not one of auto, jdk, accp",
                option.lastLine());
        Result variable = run(ascii("0100zz\n"), Map.of("SPERLI_TLS_ENGINE", "fast"), "job.jar");
        assertEquals(2, variable.status());
        assertEquals("H1616 SPERLI_TLS_ENGINE refused: TLS engine 'fast' is not one of auto, jdk, accp",
                variable.lastLine());
        assertFalse(option.hasStackTrace() || variable.hasStackTrace(), option.stderr() + variable.stderr());
    }

    @Test
    void helpPrintsUsageAndExitsZero() {
        Result r = run(new byte[0], Map.of(), "--help");
        assertEquals(0, r.status());
        assertTrue(r.stdout().startsWith("usage: sperli-rankd"), r.stdout());
    }

    @Test
    void missingJarIsRefusedWithH1616() {
        Result r = run(new LocalJob(1, 2000).line(0), Map.of(), dir.resolve("absent.jar").toString());
        assertEquals(2, r.status());
        assertTrue(r.lastLine().startsWith("H1616 jar "), r.stderr());
    }

    @Test
    void jarWithoutSperliJobAttributeIsRefused() throws IOException {
        Path jar = TestJars.jobJar(dir, HelloTestJob.class, null);
        Result r = run(new LocalJob(1, 2000).line(0), Map.of(), jar.toString());
        assertEquals(2, r.status());
        assertTrue(r.lastLine().startsWith("H1616 jar ") && r.lastLine().contains("Sperli-Job"), r.stderr());
    }

    @Test
    void classThatIsNoSperliJobIsRefused() throws IOException {
        Path jar = TestJars.jobJar(dir, HelloTestJob.class, "java.lang.String");
        Result r = run(new LocalJob(1, 2000).line(0), Map.of(), jar.toString());
        assertEquals(2, r.status());
        assertTrue(r.lastLine().contains("does not implement org.sperli.SperliJob"), r.stderr());
    }

    @Test
    void classWithoutPublicNoArgumentConstructorIsRefusedBeforeConnecting() throws IOException {
        Path jar = TestJars.jobJar(dir, NoDefaultConstructorTestJob.class);
        Result r = run(new LocalJob(1, 2000).line(0), Map.of(), jar.toString());
        assertEquals(2, r.status());
        assertTrue(r.lastLine().startsWith("H1616 jar ") && r.lastLine().endsWith("no public no-argument constructor"),
                r.stderr());
    }

    @Test
    void refusedHostIsH1615() throws IOException {
        Path jar = TestJars.jobJar(dir, HelloTestJob.class);
        Result r = run(new LocalJob(1, 2000).line(0), Map.of("SPERLI_REFUSED_HOSTS", "127.0.0.1"), jar.toString());
        assertEquals(2, r.status());
        assertTrue(r.lastLine().startsWith("H1615 "), r.stderr());
        assertTrue(r.lastLine().contains("SPERLI_REFUSED_HOSTS"), r.stderr());
    }

    @Test
    void oneRankJobCompletes() throws IOException {
        Path jar = TestJars.jobJar(dir, HelloTestJob.class);
        Result r = run(new LocalJob(1, 2000).line(0), Map.of(), jar.toString(), "a", "b");
        assertEquals(0, r.status(), r.stderr());
        assertEquals("sperli-rank: started\nsperli-rank: connected\nsperli-rank: running\nsperli-rank: done\n"
                + "sperli-rank: closed\n", r.stderr().replace("\r\n", "\n"),
                "only the phase lines, in order; a rank alone does not listen");
    }

    @Test
    void oneRankJobThatThrowsExitsThreeWithTheSummary() throws IOException {
        Path jar = TestJars.jobJar(dir, ThrowingTestJob.class);
        Result r = run(new LocalJob(1, 2000).line(0), Map.of(), jar.toString(), "0");
        assertEquals(3, r.status(), r.stderr());
        assertTrue(r.lastLine().startsWith("program failed: java.lang.IllegalStateException: boom at rank 0 (at "
                + ThrowingTestJob.class.getName() + ".run("), r.stderr());
        assertFalse(r.hasStackTrace(), r.stderr());
    }

    @Test
    void neverPrintsTheDescription() throws IOException {
        byte[] line = new LocalJob(1, 2000).line(0);
        String hex = new String(line, StandardCharsets.US_ASCII).strip();
        Path jar = TestJars.jobJar(dir, ThrowingTestJob.class);
        Result r = run(line, Map.of(Report.DEBUG_VARIABLE, "1"), jar.toString(), "0");
        for (int i = 0; i + 32 <= hex.length(); i += 997) {
            assertFalse(r.stderr().contains(hex.substring(i, i + 32)), "description text on stderr");
        }
        assertFalse(r.stderr().contains("PRIVATE KEY"), r.stderr());
        assertFalse(r.stderr().contains("BEGIN"), r.stderr());
    }
}
