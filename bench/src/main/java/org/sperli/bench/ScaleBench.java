package org.sperli.bench;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.sperli.checkpoint.DurableFiles;
import org.sperli.crypto.CryptoEngine;

/**
 * {@code scripts/bench scale} with the options of {@link ScaleOptions}:
 * what one rank costs in a job of N ranks, measured on one real rank process (rank 0, which dials every other rank)
 * against a {@link PeerFarm} that plays ranks 1 to N-1 on T event-loop threads ({@link ScaleRun}). One row per N:
 *
 * <ul>
 *   <li>connected: seconds from the rank process's start to its {@code sperli-rank: connected} line (every HELLO
 *   checked), and its CPU seconds by then (JVM start-up, description checks and every handshake);</li>
 *   <li>hs first, hs last: the rank's CPU per connection over the first and the last hundred handshakes;</li>
 *   <li>heap: used heap after a full collection once connected, and after the idle window; per conn: the idle heap's
 *   growth per added connection against the smallest N of the run;</li>
 *   <li>rss, threads (every thread of the process), fds (open descriptors) and fds per added connection;</li>
 *   <li>idle: the rank's CPU over the idle window with every connection up (heartbeats only), in % of a core;</li>
 *   <li>barrier, allreduce: the median of R timed calls at N (the allreduce of one f64), in ms.</li>
 * </ul>
 *
 * <p>The farm runs on the same cores as the rank and does the other side of every handshake, so the connect time is
 * that of two processes sharing the machine; the CPU figures are the rank's own.
 */
public final class ScaleBench {
    private static final long MIB = 1L << 20;

    private ScaleBench() {
    }

    public static void main(String[] args) throws Exception {
        ScaleOptions o = ScaleOptions.parse(args);
        PrintStream out = System.out;
        // The farm's side of every handshake on the engine a rank would choose here (the rank chooses its own).
        CryptoEngine.Choice engine = CryptoEngine.selectAndWarmUp(CryptoEngine.requested(null, System.getenv()),
                System.getenv());
        out.printf(Locale.ROOT, "scale: one real rank (rank 0) against a peer farm of N-1 ranks on %d threads (%s), %s,"
                + " JDK %s, %d cores; settle %d s, idle window %d s, %d timed rounds, silence limit %s%n",
                o.farmThreads(), engine.note(), System.getProperty("os.arch"), Runtime.version(),
                Runtime.getRuntime().availableProcessors(), o.settleSeconds(), o.idleSeconds(), o.rounds(),
                o.silenceMsOrNull() == null ? "as sperli run chooses it" : o.silenceMsOrNull() + " ms");
        List<ScaleRun.Row> rows = new ArrayList<>();
        for (int n : o.ranks()) {
            Path dir = ScaleRun.tempDir();
            try {
                rows.add(new ScaleRun(n, o).run(dir));
            } finally {
                DurableFiles.deleteTree(dir);
            }
            System.err.printf(Locale.ROOT, "scale: %d ranks done%n", n);
        }
        if (!rows.isEmpty()) {
            print(out, rows);
        }
        if (o.launcherRanks() > 0) {
            out.printf(Locale.ROOT, "%nthe launcher with stand-in host agents: %d ranks on %d hosts, %d output lines"
                    + " a rank%n", o.launcherRanks(), o.hosts(), o.linesPerRank());
            out.println(LauncherScale.HEADER);
            out.println(LauncherScale.run(o.launcherRanks(), o.hosts(), o.linesPerRank()).format());
        }
    }

    static void print(PrintStream out, List<ScaleRun.Row> rows) {
        out.println("| ranks | connected s | CPU s | hs first ms | hs last ms | heap MiB | idle heap MiB"
                + " | per conn KiB | RSS MiB | threads | fds | fds/conn | idle CPU % | barrier ms | allreduce ms |");
        out.println("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        ScaleRun.Row base = rows.get(0);
        for (ScaleRun.Row r : rows) {
            boolean first = r == base;
            int added = r.ranks() - base.ranks();
            out.printf(Locale.ROOT, "| %d | %.1f | %.1f | %.2f | %.2f | %.1f | %.1f | %s | %.0f | %d | %d | %s | %.1f"
                            + " | %.2f | %.2f |%n", r.ranks(), r.connectedS(), r.cpuAtConnectedS(),
                    r.firstHandshakeMs(), r.lastHandshakeMs(), r.connectedHeap() / (double) MIB,
                    r.idleHeap() / (double) MIB,
                    first ? "-" : String.format(Locale.ROOT, "%.1f", (r.idleHeap() - base.idleHeap()) / 1024.0 / added),
                    r.rssKb() / 1024.0, r.threads(), r.fds(),
                    first ? "-" : String.format(Locale.ROOT, "%.2f", (r.fds() - base.fds()) / (double) added),
                    100 * r.idleCpu(), r.barrierMs(), r.allreduceMs());
        }
    }
}
