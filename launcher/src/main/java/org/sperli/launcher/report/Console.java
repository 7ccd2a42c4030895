package org.sperli.launcher.report;

import java.io.PrintWriter;
import java.util.Objects;
import java.util.function.BiConsumer;
import org.sperli.jobspec.RankPhase;

/**
 * Where everything the launcher shows goes: rank output lines (stdout lines to {@code out}, stderr lines to
 * {@code err}, each prefixed {@code [rank N] } unless prefixes are off, and with {@code --timestamp-output} a
 * {@link LineTimestamps} stamp before all), the launcher's own notes to {@code err}, and on a terminal a one-line
 * progress display on {@code err} that is erased before any other line and drawn again after it. Rank lines also go
 * to a {@link RankLineCopy} ({@code --output-dir}), stamped alike. All methods are safe to call from the output pumps
 * of many ranks at once; a line is never split.
 */
public final class Console {
    private static final String ERASE_LINE = "\r\u001b[K";

    private final PrintWriter out;
    private final PrintWriter err;
    private final boolean prefix;
    private final boolean terminal;
    private final boolean verbose;
    private final LineTimestamps timestampsOrNull;
    private String progress;
    private RankLineCopy copy = RankLineCopy.NONE;
    private volatile BiConsumer<Integer, RankPhase> phases = (rank, phase) -> { };
    private volatile TraceLines traces = (incarnation, rank, line) -> { };

    /** Who takes the trace lines of ranks ({@code sperli run --trace}). */
    @FunctionalInterface
    public interface TraceLines {
        void line(long incarnation, int rank, String line);
    }

    public Console(PrintWriter out, PrintWriter err, boolean prefix, boolean terminal, boolean verbose) {
        this(out, err, prefix, terminal, verbose, null);
    }

    /** As the other constructor; rank lines are stamped when {@code timestampsOrNull} is given. */
    public Console(PrintWriter out, PrintWriter err, boolean prefix, boolean terminal, boolean verbose,
                   LineTimestamps timestampsOrNull) {
        this.out = Objects.requireNonNull(out);
        this.err = Objects.requireNonNull(err);
        this.prefix = prefix;
        this.terminal = terminal;
        this.verbose = verbose;
        this.timestampsOrNull = timestampsOrNull;
    }

    /** Where rank lines also go; replaces the copy set before. */
    public synchronized void copyRankLinesTo(RankLineCopy copy) {
        this.copy = Objects.requireNonNull(copy);
    }

    /** A rank's stdout or stderr was opened in incarnation {@code incarnation}: its copy may begin. */
    public synchronized void rankStreamOpened(long incarnation, int rank, boolean stderr) {
        copy.opened(incarnation, rank, stderr);
    }

    /** One line a rank wrote in incarnation {@code incarnation}, without its line end. */
    public synchronized void rankLine(long incarnation, int rank, boolean stderr, String line) {
        // Stamped under the lock, so that stamps never go backwards in what is shown.
        String stamp = timestampsOrNull == null ? "" : timestampsOrNull.now() + " ";
        copy.line(incarnation, rank, stderr, stamp + line);
        PrintWriter target = stderr ? err : out;
        hideProgress();
        target.println(stamp + (prefix ? "[rank " + rank + "] " : "") + line);
        target.flush();
        showProgress();
    }

    /**
     * A phase line of a rank: handed to the phase listener (the launch's progress and timeline), never shown; with
     * {@code -v} the timeline prints them all as one table.
     */
    public void rankPhase(int rank, RankPhase phase) {
        phases.accept(rank, phase);
    }

    /** A trace line of a rank: handed to the trace listener, never shown. */
    public void rankTrace(long incarnation, int rank, String line) {
        traces.line(incarnation, rank, line);
    }

    /** Who takes the ranks' trace lines; replaces the one set before. */
    public void onRankTrace(TraceLines listener) {
        traces = Objects.requireNonNull(listener);
    }

    /** Who learns of rank phases; replaces the one set before. */
    public void onRankPhase(BiConsumer<Integer, RankPhase> listener) {
        phases = Objects.requireNonNull(listener);
    }

    /** A note of the launcher, on stderr: {@code sperli: ...}. */
    public synchronized void note(String line) {
        hideProgress();
        err.println("sperli: " + line);
        err.flush();
        showProgress();
    }

    /** A note shown only with -v or SPERLI_DEBUG. */
    public void detail(String line) {
        if (verbose) {
            note(line);
        }
    }

    public boolean verbose() {
        return verbose;
    }

    /** Replaces the progress line (terminal only; elsewhere nothing is shown). */
    public synchronized void progress(String text) {
        if (!terminal) {
            return;
        }
        hideProgress();
        progress = text;
        showProgress();
    }

    /**
     * Replaces the progress line with {@code text} as a note: the launch is over. Returns false (and shows nothing)
     * when no progress line was shown.
     */
    public synchronized boolean finishProgress(String text) {
        if (progress == null) {
            return false;
        }
        hideProgress();
        progress = null;
        err.println("sperli: " + text);
        err.flush();
        return true;
    }

    /** Removes the progress line for good. */
    public synchronized void endProgress() {
        hideProgress();
        progress = null;
    }

    private void hideProgress() {
        if (progress != null) {
            err.print(ERASE_LINE);
            err.flush();
        }
    }

    private void showProgress() {
        if (progress != null) {
            err.print("sperli: " + progress);
            err.flush();
        }
    }
}
