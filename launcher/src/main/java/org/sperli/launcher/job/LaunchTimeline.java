package org.sperli.launcher.job;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.sperli.jobspec.RankPhase;

/**
 * When each phase of a launch ended, in seconds since the launch began (the launcher's checks start), for the
 * breakdown {@code sperli run -v} prints after each incarnation: the job's keys and certificates, then per rank the
 * process started by the launcher, the rank's own phase lines ({@link RankPhase}, timed when the launcher read them)
 * and its exit. Up to {@value #MAX_ROWS} ranks get a row each; larger jobs get the minimum, median and maximum of
 * each column, so that 4096 ranks still make a few lines.
 *
 * <p>Columns of a row:
 * <pre>
 *   spawned   the launcher started the rank's process (local) or channel (SSH)
 *   main      the rank's JVM entered main          (RankPhase.STARTED)
 *   listen    it listens at its port              (RankPhase.LISTENING)
 *   conn      every peer's HELLO was checked      (RankPhase.CONNECTED)
 *   run       the program started                 (RankPhase.RUNNING)
 *   done      the program returned                (RankPhase.DONE)
 *   closed    BYE exchanged, connections closed   (RankPhase.CLOSED)
 *   exited    the launcher saw the process end
 * </pre>
 * The first two were once named "process" and "started", which read as one column ("process started").
 * A rank that never printed a phase shows {@code -} there. The heading says how long before the launch the launcher's
 * JVM started (its start and reading the command line) and when the keys were made. Thread-safe:
 * phases arrive on the ranks' output threads.
 */
public final class LaunchTimeline {
    /** Jobs up to this size get a row per rank. */
    public static final int MAX_ROWS = 16;

    /**
     * The columns' headings, in order: what {@code scripts/bench launch} reads the table by (so a renamed column
     * cannot leave it reading another).
     */
    public static final List<String> COLUMNS = List.of("spawned", "main", "listen", "conn", "run", "done", "closed",
            "exited");
    private static final int SPAWNED = 0;
    private static final int FIRST_PHASE = 1;
    private static final int EXITED = COLUMNS.size() - 1;
    private static final long NONE = -1;

    private final LongSupplier nanoClock;
    private final long originNs;
    private final Supplier<Duration> jvmStartedBefore;
    private long keysNs = NONE;
    private long incarnation;
    private long[][] at = new long[0][];

    /** A timeline whose origin is now on {@code nanoClock}. */
    public LaunchTimeline(LongSupplier nanoClock) {
        this(nanoClock, () -> null);
    }

    /**
     * As {@link #LaunchTimeline(LongSupplier)}; the heading also says how long before the launch the launcher's JVM
     * started (its start and the reading of the command line, which the rows do not show), as {@code jvmStartedBefore}
     * tells when the lines are made (null: unknown).
     */
    public LaunchTimeline(LongSupplier nanoClock, Supplier<Duration> jvmStartedBefore) {
        this.nanoClock = nanoClock;
        this.originNs = nanoClock.getAsLong();
        this.jvmStartedBefore = jvmStartedBefore;
    }

    /** The job's keys, certificates and tokens were made (once per job). */
    public synchronized void keysMade() {
        keysNs = nanoClock.getAsLong() - originNs;
    }

    /** An incarnation of {@code size} ranks begins: the rows start empty. */
    synchronized void begin(long incarnation, int size) {
        this.incarnation = incarnation;
        at = new long[size][COLUMNS.size()];
        for (long[] row : at) {
            Arrays.fill(row, NONE);
        }
    }

    synchronized void processStarted(int rank) {
        mark(rank, SPAWNED);
    }

    synchronized void phase(int rank, RankPhase phase) {
        mark(rank, FIRST_PHASE + phase.ordinal());
    }

    synchronized void exited(int rank) {
        mark(rank, EXITED);
    }

    private void mark(int rank, int column) {
        if (rank >= 0 && rank < at.length && at[rank][column] == NONE) {
            at[rank][column] = nanoClock.getAsLong() - originNs;
        }
    }

    /** The breakdown as lines, without prefix: a heading, then a row per rank or the min/median/max rows. */
    public synchronized List<String> lines() {
        List<String> lines = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        Duration before = jvmStartedBefore.get();
        // Two clocks meet there (the JVM's start and the wall clock): a step of the wall clock is not shown.
        if (before != null && !before.isNegative()) {
            notes.add("the launcher's JVM started " + seconds(before.toNanos()) + " s before it");
        }
        if (keysNs != NONE) {
            notes.add("keys and certificates made at " + seconds(keysNs));
        }
        lines.add("incarnation " + incarnation + " phases, seconds since the launch"
                + (notes.isEmpty() ? "" : " (" + String.join("; ", notes) + ")") + ":");
        StringBuilder heading = new StringBuilder(String.format(Locale.ROOT, "%6s", "rank"));
        for (String h : COLUMNS) {
            heading.append(String.format(Locale.ROOT, " %7s", h));
        }
        lines.add(heading.toString());
        if (at.length <= MAX_ROWS) {
            for (int rank = 0; rank < at.length; rank++) {
                lines.add(row(String.valueOf(rank), at[rank]));
            }
        } else {
            lines.add(row("min", columnStatistic(0.0)));
            lines.add(row("median", columnStatistic(0.5)));
            lines.add(row("max", columnStatistic(1.0)));
        }
        return lines;
    }

    /** Per column, the value at {@code fraction} of the ranks that have one (0 min, 0.5 median, 1 max). */
    private long[] columnStatistic(double fraction) {
        long[] out = new long[COLUMNS.size()];
        for (int column = 0; column < COLUMNS.size(); column++) {
            final int c = column;
            long[] values = Arrays.stream(at).mapToLong(r -> r[c]).filter(v -> v != NONE).sorted().toArray();
            out[column] = values.length == 0 ? NONE : values[(int) Math.round(fraction * (values.length - 1))];
        }
        return out;
    }

    private static String row(String label, long[] values) {
        StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%6s", label));
        for (long v : values) {
            row.append(String.format(Locale.ROOT, " %7s", v == NONE ? "-" : seconds(v)));
        }
        return row.toString();
    }

    private static String seconds(long ns) {
        return String.format(Locale.ROOT, "%.3f", ns / 1e9);
    }
}
