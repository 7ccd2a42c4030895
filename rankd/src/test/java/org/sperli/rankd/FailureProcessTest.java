package org.sperli.rankd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sperli.SperliJob;
import org.sperli.rankd.testjobs.ExitingTestJob;
import org.sperli.rankd.testjobs.FailureWaitingTestJob;
import org.sperli.rankd.testjobs.HelloTestJob;
import org.sperli.rankd.testjobs.LoopTestJob;
import org.sperli.rankd.testjobs.ThrowingTestJob;

/** How a running job of real rankd processes ends when a program throws, a rank is killed or stopped. */
@Timeout(90)
class FailureProcessTest {
    private static final long SILENCE_MS = 2000;
    private static final Duration START_BOUND = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    /**
     * Two ranks, so that the verdict is certain: with three or more, a rank that received the ABORT closes its other
     * connections without BYE, and a third rank may see that close before the ABORT (H1613, 5), as section 10 allows.
     */
    @Test
    void programThatThrowsExitsThreeAndTheOtherFour() throws Exception {
        try (RankProcesses ranks = started(2, ThrowingTestJob.class, "1")) {
            RankProcess thrower = ranks.get(1);
            assertEquals(3, thrower.exitStatus(START_BOUND), thrower.stderr());
            assertEquals(List.of("sperli-rank: started", "sperli-rank: listening", "sperli-rank: connected",
                    "sperli-rank: running", "sperli-rank: done", "sperli-rank: closed",
                    "program failed: java.lang.IllegalStateException: boom at rank 1 (at "
                    + ThrowingTestJob.class.getName() + ".run(ThrowingTestJob.java:12))"),
                    thrower.stderr().lines().toList(),
                    "the phase lines, then one line: no stack trace, no echo of the runtime's log");
            RankProcess other = ranks.get(0);
            assertEquals(4, other.exitStatus(Duration.ofSeconds(10)), other.stderr());
            assertTrue(other.lastStderrLine().startsWith("H1612 "), other.stderr());
            assertTrue(other.lastStderrLine().contains("reason 7"), other.stderr());
        }
    }

    /**
     * A program that calls System.exit, even with 0, left its peers without a word: nobody stopped it, it failed.
     * Its rank exits 3 (not the status it asked for, nor the operator's 8), says where it called, and sends reason 7.
     */
    @Test
    void programThatCallsSystemExitFailsWithThreeAndAbortsTheOther() throws Exception {
        try (RankProcesses ranks = started(2, ExitingTestJob.class, "1", "0")) {
            RankProcess exiter = ranks.get(1);
            assertEquals(3, exiter.exitStatus(START_BOUND), exiter.stderr());
            assertEquals("program failed: it called System.exit (at " + ExitingTestJob.class.getName()
                    + ".run(ExitingTestJob.java:15)) instead of returning from run (ABORT reason 7 to every connected"
                    + " peer)", exiter.lastStderrLine(), exiter.stderr());
            RankProcess other = ranks.get(0);
            assertEquals(4, other.exitStatus(Duration.ofSeconds(10)), other.stderr());
            assertTrue(other.lastStderrLine().startsWith("H1612 ") && other.lastStderrLine().contains("reason 7")
                    && other.lastStderrLine().contains("called System.exit"), other.stderr());
            assertEquals(List.of(), RankProcesses.tmpEntries(exiter));
        }
    }

    /**
     * The launcher's SIGTERM after a rank failed reaches a rank whose job has already failed (rank 1's ABORT reason 7
     * ended rank 0's wait): that rank keeps its own verdict, 4 and its H1612 line, rather than the stop's 8.
     */
    @Test
    void aSigtermAfterTheJobFailedKeepsTheRanksOwnStatus() throws Exception {
        try (RankProcesses ranks = started(2, FailureWaitingTestJob.class, "1")) {
            RankProcess waiter = ranks.get(0);
            ranks.awaitAll(p -> p == waiter ? RankProcesses.printed(p, "failed: H1612") : !p.process.isAlive(),
                    START_BOUND, "failed");
            waiter.process.toHandle().destroy();
            assertEquals(4, waiter.exitStatus(Duration.ofSeconds(10)), waiter.stderr());
            assertTrue(waiter.lastStderrLine().startsWith("H1612 ") && waiter.lastStderrLine().contains("reason 7"),
                    waiter.stderr());
            assertFalse(waiter.stderr().contains("stopped"), waiter.stderr());
            assertEquals(List.of(), RankProcesses.tmpEntries(waiter));
        }
    }

    @Test
    void killedRankEndsEveryOtherWithinSilencePlusOneSecond() throws Exception {
        try (RankProcesses ranks = started(3, LoopTestJob.class)) {
            ranks.awaitAll(p -> RankProcesses.printed(p, "looping"), START_BOUND, "looping");
            long killedAt = System.nanoTime();
            ranks.get(1).process.destroyForcibly();
            Duration bound = Duration.ofMillis(SILENCE_MS + 1000);
            for (int rank : new int[] {0, 2}) {
                RankProcess p = ranks.get(rank);
                Duration left = bound.minusNanos(System.nanoTime() - killedAt);
                int status = p.exitStatus(left.isNegative() ? Duration.ZERO : left);
                assertTrue(status == 5 || status == 4, p.name + " exited " + status + ": " + p.stderr());
                assertTrue(p.lastStderrLine().startsWith(status == 5 ? "H1613 " : "H1612 "), p.stderr());
                assertEquals(1, p.stderr().lines().filter(l -> l.startsWith("H16")).count(),
                        "the H line once, as the last line:\n" + p.stderr());
                assertEquals(List.of(), RankProcesses.tmpEntries(p));
            }
        }
    }

    /**
     * A SIGTERM to one rank of a busy job: that rank exits 8, and its ABORT reason 8 reaches the other before the
     * program thread, woken by the stop, could close the connections under it.
     */
    @Test
    void sigtermStopsTheRankWithEightAndAbortsTheOthers() throws Exception {
        // SIGTERM alone: Process.destroy would close stdin as well (the launcher gone, the next test).
        assertOneStopsWithEightAndAbortsTheOther(p -> p.process.toHandle().destroy(), Duration.ofSeconds(10),
                "stopped by SIGTERM (the operator's stop, or the launcher ending the job) (ABORT reason 8 to every"
                        + " connected peer)");
    }

    /**
     * The launcher gone (its end of standard input closed, as a SIGKILL of the launcher or a cut SSH channel does):
     * the rank stops within 2 s with 8 and ABORT reason 8, and leaves nothing in its temporary directory.
     */
    @Test
    void aRankWhoseLauncherIsGoneStopsWithinTwoSecondsAndAbortsTheOthers() throws Exception {
        assertOneStopsWithEightAndAbortsTheOther(RankProcess::closeInput, Duration.ofSeconds(2),
                "stopped: its launcher is gone (standard input closed) (ABORT reason 8 to every connected peer)");
    }

    /** Two looping ranks; {@code stop} ends rank 0, which exits 8 within {@code bound}; rank 1 gets reason 8. */
    private void assertOneStopsWithEightAndAbortsTheOther(StopAction stop, Duration bound, String lastLine)
            throws Exception {
        try (RankProcesses ranks = started(2, LoopTestJob.class)) {
            ranks.awaitAll(p -> RankProcesses.printed(p, "looping"), START_BOUND, "looping");
            RankProcess stopped = ranks.get(0);
            stop.apply(stopped);
            assertEquals(8, stopped.exitStatus(bound), stopped.stderr());
            assertEquals(lastLine, stopped.lastStderrLine(), stopped.stderr());
            RankProcess other = ranks.get(1);
            assertEquals(4, other.exitStatus(Duration.ofSeconds(10)), other.stderr());
            assertTrue(other.lastStderrLine().startsWith("H1612 ") && other.lastStderrLine().contains("reason 8"),
                    other.stderr());
            assertEquals(List.of(), RankProcesses.tmpEntries(stopped));
        }
    }

    /** Every rank of a job of {@code size} running {@code jobClass} with {@code jobArgs}, started. */
    private RankProcesses started(int size, Class<? extends SperliJob> jobClass, String... jobArgs)
            throws IOException {
        Path jar = TestJars.jobJar(dir, jobClass);
        List<String> args = new ArrayList<>(List.of(jar.toString()));
        args.addAll(List.of(jobArgs));
        LocalJob job = new LocalJob(size, SILENCE_MS);
        RankProcesses ranks = new RankProcesses(dir);
        try {
            for (int rank = 0; rank < size; rank++) {
                ranks.start(job, rank, args, Map.of());
            }
        } catch (IOException | RuntimeException e) {
            ranks.close();
            throw e;
        }
        return ranks;
    }

    @FunctionalInterface
    private interface StopAction {
        void apply(RankProcess rank) throws IOException;
    }

    /** A launcher gone while the rank still connects (a peer never comes): it stops at once, its PEMs removed. */
    @Test
    void aRankWhoseLauncherIsGoneWhileConnectingStopsAndRemovesItsPems() throws Exception {
        Path jar = TestJars.jobJar(dir, LoopTestJob.class);
        LocalJob job = new LocalJob(2, SILENCE_MS);
        try (RankProcesses ranks = new RankProcesses(dir)) {
            RankProcess alone = ranks.start(job, 0, List.of(jar.toString()), Map.of());
            ranks.awaitAll(FailureProcessTest::hasPems, START_BOUND, "wrote its PEM directory");
            alone.closeInput();
            assertEquals(8, alone.exitStatus(Duration.ofSeconds(2)), alone.stderr());
            assertEquals("stopped: its launcher is gone (standard input closed) while connecting",
                    alone.lastStderrLine(), alone.stderr());
            assertEquals(List.of(), RankProcesses.tmpEntries(alone));
        }
    }

    /**
     * A rank killed with SIGKILL while it connects leaves its PEM directory, key included; the next rank of the same
     * user on that host removes it, says so in one line, and completes.
     */
    @Test
    void theNextRankRemovesThePemDirectoryOfARankKilledWhileConnecting() throws Exception {
        Path jar = TestJars.jobJar(dir, HelloTestJob.class);
        try (RankProcesses ranks = new RankProcesses(dir)) {
            RankProcess killed = ranks.start(new LocalJob(2, SILENCE_MS), 0, List.of(jar.toString()), Map.of());
            ranks.awaitAll(FailureProcessTest::hasPems, START_BOUND, "wrote its PEM directory");
            killed.process.destroyForcibly();
            killed.exitStatus(Duration.ofSeconds(10));
            List<Path> left = RankProcesses.tmpEntries(killed).stream()
                    .filter(e -> e.getFileName().toString().startsWith(PemDirectory.PREFIX)).toList();
            assertEquals(1, left.size(), "the killed rank's PEM directory stays until a later start");

            RankProcess next = RankProcess.start(dir, killed.name, List.of(jar.toString()), Map.of());
            ranks.ranks.add(next);
            next.feed(new LocalJob(1, SILENCE_MS).line(0));
            assertEquals(0, next.exitStatus(START_BOUND), next.stderr());
            assertTrue(next.stderr().contains("removed " + left.get(0) + ", the PEM directory of a rank killed"
                    + " earlier"), left + " " + next.stderr());
            assertTrue(Files.notExists(left.get(0)), left.get(0) + " is still there");
        }
    }

    private static boolean hasPems(RankProcess p) {
        try {
            return RankProcesses.tmpEntries(p).stream()
                    .anyMatch(e -> e.getFileName().toString().startsWith(PemDirectory.PREFIX));
        } catch (IOException e) {
            return false;
        }
    }
}
