package org.sperli.launcher.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.sperli.launcher.report.Console;

/**
 * Ending ranks with fake ranks and bounds of a fraction of a second: a rank that ends on SIGTERM is not killed, one
 * that does not is killed after the grace, one whose host does not answer is said and not waited for.
 */
class RankEndingTest {
    private static final Duration SHORT = Duration.ofMillis(200);
    private static final Duration LONG = Duration.ofSeconds(30);

    /** A rank that ends on SIGTERM, on a kill, or never, and whose host answers or not. */
    private static final class FakeRank implements RankProcess {
        final CompletableFuture<Integer> exited = new CompletableFuture<>();
        final boolean endsOnTerminate;
        final boolean endsOnKill;
        final boolean answers;
        volatile boolean terminated;
        volatile boolean killed;

        FakeRank(boolean endsOnTerminate, boolean endsOnKill, boolean answers) {
            this.endsOnTerminate = endsOnTerminate;
            this.endsOnKill = endsOnKill;
            this.answers = answers;
        }

        @Override
        public int rank() {
            return 3;
        }

        @Override
        public String where() {
            return "fake";
        }

        @Override
        public CompletableFuture<Integer> exited() {
            return exited;
        }

        @Override
        public String lastStderrLine() {
            return "";
        }

        @Override
        public void terminate() {
            terminated = true;
            if (endsOnTerminate) {
                exited.complete(8);
            }
        }

        @Override
        public void kill() {
            killed = true;
            if (endsOnKill) {
                exited.complete(128 + 9);
            }
        }

        @Override
        public CompletableFuture<Boolean> reachable(Duration bound) {
            return CompletableFuture.completedFuture(answers);
        }
    }

    private final StringWriter said = new StringWriter();
    private final Console console = new Console(new PrintWriter(said, true), new PrintWriter(said, true), false, false,
            true);

    private RankEnding ending(Duration settle, Duration grace, Duration killWait) {
        return new RankEnding(console, System::nanoTime, settle, grace, SHORT, killWait);
    }

    @Test
    void aRankThatEndsOnSigtermIsNotKilled() {
        FakeRank rank = new FakeRank(true, true, true);

        ending(SHORT, LONG, LONG).endAll(List.of(rank));

        assertTrue(rank.terminated);
        assertFalse(rank.killed);
        assertEquals("", said.toString());
    }

    @Test
    void aRankThatGoesOnAfterSigtermIsKilledAfterTheGrace() {
        FakeRank rank = new FakeRank(false, true, true);
        long startNs = System.nanoTime();

        ending(SHORT, SHORT, LONG).endAll(List.of(rank));

        assertTrue(rank.killed);
        assertTrue(System.nanoTime() - startNs >= SHORT.toNanos(), "killed before the grace was over");
        assertTrue(said.toString().contains("rank 3 (fake) still running after SIGTERM; killing it"), said.toString());
    }

    @Test
    void aRankThatGoesOnAfterAKillIsSaid() {
        FakeRank rank = new FakeRank(false, false, true);

        ending(SHORT, SHORT, SHORT).endAll(List.of(rank));

        assertTrue(said.toString().contains("rank 3 (fake) did not end after a kill"), said.toString());
    }

    @Test
    void aRankWhoseHostDoesNotAnswerIsSaidAsLeftBehindAndNotWaitedFor() {
        FakeRank rank = new FakeRank(false, false, false);
        long startNs = System.nanoTime();

        ending(SHORT, LONG, LONG).endAll(List.of(rank));

        assertTrue(System.nanoTime() - startNs < LONG.toNanos() / 2, "waited for a rank that cannot be reached");
        assertTrue(rank.killed);
        assertTrue(said.toString().contains("rank 3 (fake) cannot be reached to end it: its host does not answer; it is"
                + " left behind"), said.toString());
        assertFalse(said.toString().contains("killing it"), said.toString());
    }

    @Test
    void settlingEndsWhenTheRanksHaveEndedOrAStopIsAsked() {
        FakeRank ended = new FakeRank(true, true, true);
        ended.exited.complete(4);
        FakeRank running = new FakeRank(true, true, true);
        long startNs = System.nanoTime();

        ending(LONG, LONG, LONG).settle(List.of(ended), () -> false);
        ending(LONG, LONG, LONG).settle(List.of(running), () -> true);

        assertTrue(System.nanoTime() - startNs < LONG.toNanos() / 2, "settled for the whole bound");
    }

    @Test
    void settlingReadsTheClockItIsGiven() {
        AtomicLong now = new AtomicLong();
        // Every reading of this clock is 10 s later: a settle bound of 30 s is over after a few readings.
        RankEnding ending = new RankEnding(console, () -> now.addAndGet(10_000_000_000L), LONG, LONG, SHORT, LONG);
        long startNs = System.nanoTime();

        ending.settle(List.of(new FakeRank(true, true, true)), () -> false);

        assertTrue(System.nanoTime() - startNs < LONG.toNanos() / 2, "settled by the system clock");
    }
}
