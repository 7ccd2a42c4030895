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
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sperli.jvm.Clock;
import org.sperli.rankd.testjobs.HelloTestJob;

/**
 * The status a rank decided stays its status whatever stop comes after: a SIGTERM that races the main thread's exit,
 * or the launcher's SIGTERM right after a rank failed. Each test runs a rankd in this JVM and calls its stop itself,
 * where a signal would run it, at a point the test chooses; the process end is recorded, not done.
 */
@Timeout(60)
class DecidedStatusTest {
    private static final String STOP_LINE = "stopped by SIGTERM (the operator's stop, or the launcher ending the job)";

    @TempDir
    Path dir;

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final RecordedEnd end = new RecordedEnd();

    private RankLife life(InputStream stdin) {
        return new RankLife(stdin, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), Map.of(), Clock.SYSTEM, end);
    }

    /**
     * The lines on standard error that are neither blank nor phase lines, as the launcher reads them. The main thread
     * of a rankd that is not halted goes on after the stop, and may still print a phase line.
     */
    private List<String> stderrLines() {
        return err.toString(StandardCharsets.UTF_8).lines()
                .filter(l -> !l.isBlank() && !l.startsWith("sperli-rank: ")).toList();
    }

    private String lastLine() {
        List<String> lines = stderrLines();
        return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
    }

    /** An input that gives no byte and ends only when {@code released} is counted down. */
    private static InputStream heldOpenUntil(CountDownLatch released) {
        return new InputStream() {
            @Override
            public int read() throws IOException {
                try {
                    if (!released.await(30, TimeUnit.SECONDS)) {
                        throw new IOException("never released");
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return -1;
            }
        };
    }

    /**
     * The main thread decided 2 and began its exit; a SIGTERM's shutdown that wins the race runs the hook, which must
     * halt with 2: returning would let the JVM end with 143, a status protocol section 11 does not list.
     */
    @Test
    void theHookHaltsWithTheDecidedStatusAlsoWhenTheMainThreadsExitIsUnderWay() {
        RankLife life = life(new ByteArrayInputStream("0100zz\n".getBytes(StandardCharsets.US_ASCII)));
        int status = life.run(new String[] {"job.jar"});
        assertEquals(2, status, String.join("\n", stderrLines()));
        life.end().exit(status);
        life.end().stopByOperator();
        assertEquals(List.of("exit 2", "halt 2"), end.calls());
        assertTrue(lastLine().startsWith("H1616 job description refused: "), lastLine());
    }

    /**
     * A rank whose connect failed (its port taken: H1613, status 5) is stopped before it said so, as the launcher does
     * when it ends a job after a failure: it exits 5 with the H1613 line, once, and the main thread says nothing more.
     */
    @Test
    void aStopAfterConnectFailedEndsWithTheDecidedStatusAndLine() throws IOException {
        Path jar = TestJars.jobJar(dir, HelloTestJob.class);
        LocalJob job = new LocalJob(2, 2000);
        CountDownLatch lifeOver = new CountDownLatch(1);
        try (ServerSocket taken = new ServerSocket()) {
            taken.setReuseAddress(false);
            taken.bind(new InetSocketAddress("0.0.0.0", job.kit.hosts().get(0).port()));
            RankLife life = life(new SequenceInputStream(new ByteArrayInputStream(job.line(0)),
                    heldOpenUntil(lifeOver)));
            Outcome decided = life.decide(new String[] {jar.toString()});
            assertEquals(5, decided.status(), String.join("\n", stderrLines()));
            assertTrue(decided.lastLine().startsWith("H1613 ") && decided.lastLine().contains(" is held by another process on this host"),
                    decided.lastLine());

            life.end().stopByOperator();
            assertEquals(-1, life.settle(decided), "the stop ended the life");
            assertEquals(List.of("halt 5"), end.calls());
            assertEquals(decided.lastLine(), lastLine());
            assertEquals(1, stderrLines().stream().filter(l -> l.startsWith("H16")).count(), stderrLines().toString());
            assertFalse(err.toString(StandardCharsets.UTF_8).contains("stopped"), stderrLines().toString());
        } finally {
            lifeOver.countDown();
        }
    }

    /** A stop before anything was decided (the description line not read yet) still ends the rank with 8. */
    @Test
    void aStopBeforeAnyDecisionStillEndsWithEight() throws InterruptedException {
        CountDownLatch stopped = new CountDownLatch(1);
        RankLife life = life(new SequenceInputStream(heldOpenUntil(stopped),
                new ByteArrayInputStream("0100zz\n".getBytes(StandardCharsets.US_ASCII))));
        AtomicInteger status = new AtomicInteger(Integer.MIN_VALUE);
        Thread main = new Thread(() -> status.set(life.run(new String[] {"job.jar"})), "rankd-main");
        main.start();
        try {
            life.end().stopByOperator();
        } finally {
            stopped.countDown();
        }
        main.join(TimeUnit.SECONDS.toMillis(30));
        assertFalse(main.isAlive(), "the main thread did not end");
        assertEquals(-1, status.get(), "the stop ended the life, not the refusal that came after it");
        assertEquals(List.of("halt 8"), end.calls());
        assertEquals(STOP_LINE + " while connecting", lastLine());
        assertFalse(err.toString(StandardCharsets.UTF_8).contains("H1616"), stderrLines().toString());
    }
}
