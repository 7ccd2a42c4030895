package org.sperli.launcher.job;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.sperli.jobspec.RankPhase;

/** The phase breakdown of {@code sperli run -v}: offsets from the launch, a row per rank, statistics for big jobs. */
class LaunchTimelineTest {
    private static final long MS = 1_000_000L;

    private final AtomicLong now = new AtomicLong(5_000 * MS);
    private final LaunchTimeline timeline = new LaunchTimeline(now::get);

    @Test
    void eachRankGetsARowOfOffsetsFromTheLaunchAndADashWhereItSaidNothing() {
        at(100);
        timeline.keysMade();
        timeline.begin(1, 2);
        at(120);
        timeline.processStarted(0);
        timeline.processStarted(1);
        at(300);
        timeline.phase(0, RankPhase.STARTED);
        at(450);
        timeline.phase(0, RankPhase.STARTED);
        timeline.phase(0, RankPhase.LISTENING);
        at(900);
        timeline.exited(1);

        assertEquals(List.of(
                "incarnation 1 phases, seconds since the launch (keys and certificates made at 0.100):",
                "  rank spawned    main  listen    conn     run    done  closed  exited",
                "     0   0.120   0.300   0.450       -       -       -       -       -",
                "     1   0.120       -       -       -       -       -       -   0.900"),
                timeline.lines(), "a phase counts when first seen");
    }

    @Test
    void theHeadingSaysHowLongBeforeTheLaunchTheLaunchersJvmStarted() {
        LaunchTimeline withStart = new LaunchTimeline(now::get, () -> Duration.ofMillis(273));
        at(90);
        withStart.keysMade();
        withStart.begin(1, 1);
        assertEquals("incarnation 1 phases, seconds since the launch (the launcher's JVM started 0.273 s before it;"
                + " keys and certificates made at 0.090):", withStart.lines().get(0));
    }

    @Test
    void aJvmStartAfterTheLaunchOrNoneIsNotShown() {
        // Two clocks meet there (the JVM's start and the wall clock): a step of the wall clock must not print a
        // negative time.
        for (Duration before : Arrays.asList(Duration.ofMillis(-5), null)) {
            LaunchTimeline withStart = new LaunchTimeline(now::get, () -> before);
            withStart.begin(1, 1);
            assertEquals("incarnation 1 phases, seconds since the launch:", withStart.lines().get(0));
        }
    }

    @Test
    void aJobOfMoreThanSixteenRanksGetsMinimumMedianAndMaximum() {
        timeline.begin(2, 17);
        for (int rank = 0; rank < 17; rank++) {
            at(10L * (rank + 1));
            timeline.processStarted(rank);
        }
        at(2_000);
        timeline.phase(16, RankPhase.CLOSED);

        List<String> lines = timeline.lines();
        assertEquals(5, lines.size(), String.join("\n", lines));
        assertEquals("incarnation 2 phases, seconds since the launch:", lines.get(0));
        assertEquals("   min   0.010       -       -       -       -       -   2.000       -", lines.get(2));
        assertEquals("median   0.090       -       -       -       -       -   2.000       -", lines.get(3));
        assertEquals("   max   0.170       -       -       -       -       -   2.000       -", lines.get(4));
    }

    @Test
    void aRankOutsideTheJobIsIgnored() {
        timeline.begin(1, 1);
        timeline.phase(3, RankPhase.RUNNING);
        timeline.processStarted(-1);

        assertEquals("     0       -       -       -       -       -       -       -       -", timeline.lines().get(2));
    }

    private void at(long msSinceLaunch) {
        now.set(5_000 * MS + msSinceLaunch * MS);
    }
}
