package org.sperli.launcher.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.sperli.jobspec.RankPhase;
import org.sperli.launcher.report.Console;
import org.sperli.testing.ManualClock;

class LaunchProgressTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    private final ManualClock clock = new ManualClock();

    private Console console(boolean terminal, boolean verbose) {
        return new Console(new PrintWriter(out, true), new PrintWriter(err, true), true, terminal, verbose);
    }

    @Test
    void countsStartedConnectedAndRunningApartAndEachRankOnce() {
        LaunchProgress progress = new LaunchProgress(console(true, false), clock::nanoTime);
        progress.begin(2, 3);
        progress.started();
        progress.started();
        progress.started();
        progress.phase(0, RankPhase.CONNECTED);
        progress.phase(0, RankPhase.CONNECTED);
        progress.phase(2, RankPhase.RUNNING);

        assertEquals("incarnation 2: ranks started 3/3, connected 2/3, running 1/3", progress.text());
        assertTrue(err.toString().endsWith("sperli: incarnation 2: ranks started 3/3, connected 2/3, running 1/3"),
                err.toString());
    }

    @Test
    void theLineBecomesANoteOnceEveryRankRunsAndLaterLinesChangeNothing() {
        LaunchProgress progress = new LaunchProgress(console(true, false), clock::nanoTime);
        progress.begin(1, 2);
        progress.started();
        progress.started();
        clock.advanceMillis(2340);
        progress.phase(0, RankPhase.RUNNING);
        progress.phase(1, RankPhase.RUNNING);
        String shown = err.toString();
        progress.phase(1, RankPhase.CONNECTED);

        assertTrue(shown.endsWith("\r\u001b[Ksperli: incarnation 1: all 2 ranks running after 2.3 s\n"), shown);
        assertEquals(shown, err.toString());
    }

    @Test
    void aRankThatPrintsNoPhasesLeavesConnectedAndRunningAtZero() {
        LaunchProgress progress = new LaunchProgress(console(true, false), clock::nanoTime);
        progress.begin(1, 2);
        progress.started();
        progress.started();
        progress.end();

        assertTrue(err.toString().contains("connected 0/2, running 0/2"), err.toString());
        assertFalse(err.toString().contains("all 2 ranks running"), err.toString());
    }

    @Test
    void offATerminalNothingIsDrawnAndTheNoteIsShownOnlyWhenVerbose() {
        LaunchProgress quiet = new LaunchProgress(console(false, false), clock::nanoTime);
        quiet.begin(1, 1);
        quiet.started();
        quiet.phase(0, RankPhase.RUNNING);
        assertEquals("", err.toString());

        LaunchProgress verbose = new LaunchProgress(console(false, true), clock::nanoTime);
        verbose.begin(1, 1);
        verbose.started();
        verbose.phase(0, RankPhase.RUNNING);
        assertTrue(err.toString().startsWith("sperli: incarnation 1: all 1 ranks running after "), err.toString());
    }

    @Test
    void aPhaseLineOnStderrGoesToTheListenerNotToTheOutputNorTheLastLine() {
        Console console = console(false, false);
        List<String> heard = new ArrayList<>();
        console.onRankPhase((rank, phase) -> heard.add(rank + " " + phase));
        RankOutput stderr = new RankOutput(console, 1, 3, true);
        RankOutput stdout = new RankOutput(console, 1, 3, false);

        write(stderr, "H1613 before\nsperli-rank: connected\nsperli-rank: running\n");
        write(stdout, "sperli-rank: running\n");

        assertEquals(List.of("3 CONNECTED", "3 RUNNING"), heard);
        assertEquals("[rank 3] H1613 before\n", err.toString());
        assertEquals("H1613 before", stderr.lastLine());
        assertEquals("[rank 3] sperli-rank: running\n", out.toString(), "stdout is the program's own");
    }

    @Test
    void phaseLinesAreNeverShownEvenWhenVerbose() {
        Console console = console(false, true);
        write(new RankOutput(console, 1, 0, true), "sperli-rank: connected\nsperli-rank: started\n");

        assertEquals("", err.toString(), "with -v the timeline shows them as one table");
    }

    @Test
    void phasesBeforeConnectedDoNotCountAsConnected() {
        LaunchProgress progress = new LaunchProgress(console(true, false), clock::nanoTime);
        progress.begin(1, 2);
        progress.phase(0, RankPhase.STARTED);
        progress.phase(0, RankPhase.LISTENING);

        assertEquals("incarnation 1: ranks started 0/2, connected 0/2, running 0/2", progress.text());
        progress.phase(0, RankPhase.DONE);
        assertEquals("incarnation 1: ranks started 0/2, connected 1/2, running 1/2", progress.text());
    }

    @Test
    void onlyTheExactPhaseLinesAreTaken() {
        assertEquals(Optional.empty(), RankPhase.ofLine("sperli-rank: connected "));
        assertEquals(Optional.empty(), RankPhase.ofLine("sperli-rank: walking"));
        assertEquals(Optional.of(RankPhase.RUNNING), RankPhase.ofLine("sperli-rank: running"));
    }

    private static void write(RankOutput sink, String text) {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        sink.write(b, 0, b.length);
    }

    @Test
    void peersHearOnlyARankThatWasConnectedUnlessNoRankPrintsPhases() {
        LaunchProgress progress = new LaunchProgress(console(false, false), clock::nanoTime);
        progress.begin(1, 3);
        assertTrue(progress.peersWillHear(1), "no phase lines at all: another rank implementation");
        progress.phase(0, RankPhase.STARTED);
        assertFalse(progress.peersWillHear(1), "rank 1 never said it was connected");
        progress.phase(1, RankPhase.CONNECTED);
        assertTrue(progress.peersWillHear(1));
        progress.begin(2, 3);
        progress.phase(2, RankPhase.LISTENING);
        assertFalse(progress.peersWillHear(1), "a new incarnation starts from nothing");
    }
}
