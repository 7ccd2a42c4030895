package org.sperli.launcher.job;

import java.util.Locale;
import java.util.function.LongSupplier;
import org.sperli.jobspec.RankPhase;
import org.sperli.launcher.report.Console;

/**
 * The one-line progress display of one incarnation: ranks started (by the launcher), connected and running (from the
 * ranks' phase lines, {@link RankPhase}). Shown on a terminal while the launch goes on; once every rank runs, the line
 * becomes the note {@code incarnation N: all S ranks running after T s} (shown only when verbose off a terminal).
 * A rank command that prints no phase lines leaves connected and running at 0, which is what the launcher knows.
 */
final class LaunchProgress {
    private final Console console;
    private final LongSupplier nanoClock;
    private long incarnation;
    private int size;
    private int started;
    private boolean[] connected = new boolean[0];
    private boolean[] running = new boolean[0];
    private int connectedCount;
    private int runningCount;
    private boolean done;
    private boolean anyPhase;
    private long beganNs;

    /** The progress shown on {@code console}, its launch time read from {@code nanoClock}. */
    LaunchProgress(Console console, LongSupplier nanoClock) {
        this.console = console;
        this.nanoClock = nanoClock;
    }

    /** A new incarnation of {@code size} ranks is about to start. */
    synchronized void begin(long incarnation, int size) {
        this.incarnation = incarnation;
        this.size = size;
        started = 0;
        connected = new boolean[size];
        running = new boolean[size];
        connectedCount = 0;
        runningCount = 0;
        done = false;
        anyPhase = false;
        beganNs = nanoClock.getAsLong();
    }

    /** The launcher started one more rank. */
    synchronized void started() {
        started = Math.min(size, started + 1);
        show();
    }

    /**
     * Rank {@code rank} said it reached {@code phase}; a rank counts once per phase, every phase from connected on
     * implies connected (from running on, running), and the phases before it do not count here.
     */
    synchronized void phase(int rank, RankPhase phase) {
        if (rank >= 0 && rank < size) {
            anyPhase = true;
        }
        if (done || rank < 0 || rank >= size || phase.compareTo(RankPhase.CONNECTED) < 0) {
            return;
        }
        if (!connected[rank]) {
            connected[rank] = true;
            connectedCount++;
        }
        if (phase.compareTo(RankPhase.RUNNING) >= 0 && !running[rank]) {
            running[rank] = true;
            runningCount++;
        }
        show();
    }

    /**
     * Whether every peer of {@code rank} has a connection to it and so hears its end by itself: it said it was
     * connected, or no rank of this launch prints phase lines at all (another rank implementation), which leaves the
     * question open and the peers the benefit of the doubt.
     */
    synchronized boolean peersWillHear(int rank) {
        if (rank < 0 || rank >= size) {
            return true;
        }
        return connected[rank] || !anyPhase;
    }

    /** The incarnation ended: the line goes away. */
    synchronized void end() {
        done = true;
        console.endProgress();
    }

    /** The text shown now. */
    synchronized String text() {
        return "incarnation " + incarnation + ": ranks started " + started + "/" + size + ", connected "
                + connectedCount + "/" + size + ", running " + runningCount + "/" + size;
    }

    private void show() {
        if (done) {
            return;
        }
        if (runningCount == size) {
            done = true;
            String note = String.format(Locale.ROOT, "incarnation %d: all %d ranks running after %.1f s",
                    incarnation, size, (nanoClock.getAsLong() - beganNs) / 1e9);
            if (!console.finishProgress(note)) {
                console.detail(note);
            }
            return;
        }
        console.progress(text());
    }
}
