package org.sperli.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.sperli.Communicator;
import org.sperli.ElementType;
import org.sperli.ReduceOp;
import org.sperli.crypto.CryptoEngine;
import org.sperli.runtime.CollectiveShape;

/**
 * Time per call of the collectives over the star and over the mesh (protocol sections 7.4 and 7.4.1, side by side:
 * one row each) on loopback TLS 1.3, every rank an {@link InProcessJob} thread
 * and, in the last column, every rank a process of its own started by {@code sperli run -n N}
 * ({@link CollectivesProcesses}), as users run jobs: {@code scripts/bench collectives [rounds]}.
 *
 * <p>Cases: allreduce of 1 MiB f64 sum at 2, 4 and 8 ranks; bcast of 16 MiB at 8 ranks (root 0; the largest
 * collective data, 16 MiB less the 16-byte collective header); barrier at 8
 * ranks. Each case warms up until every rank's JIT compiler is quiet ({@link WarmUp}: at least {@link #WARM_UP_NS},
 * at most {@link #LONGEST_WARM_UP_NS}; the table says how long it took), then runs {@code rounds} rounds
 * (default 5). A round is {@code calls} calls in a row followed by one barrier, timed on rank 0; time per call is the
 * round's time / calls, so a call that returns before the peers have its data (a bcast root returns once TLS took the
 * bytes) is still charged with the delivery. Median and best round are shown; MB/s is the data size of one call per
 * time per call (10^6 bytes). All ranks share this machine's cores, so encryption and decryption of every byte on
 * every link compete for the same CPUs: the numbers compare implementations on one box, not a cluster.
 */
public final class CollectivesBench {
    /**
     * Warm-up of a case in threads: 2-rank allreduce rounds took 6.4, 2.8, 2.3, 2.1 and then 1.7 ms per call in
     * consecutive 1-second windows of one JVM (JDK 17, 2 cores): a second of warm-up timed compilation, not the call.
     */
    private static final long WARM_UP_NS = 6_000_000_000L;
    private static final long LONGEST_WARM_UP_NS = 60_000_000_000L;
    private static final int DEFAULT_ROUNDS = 5;
    private static final Duration LIMIT = Duration.ofSeconds(100);
    /** The largest bcast: 16 MiB less the collective header, the most one COLLECTIVE frame carries. */
    private static final int MAX_DATA = Communicator.MAX_COLLECTIVE_DATA;

    /** One row: what rank r does per call, and how many calls make a round. */
    record Case(String label, int ranks, int calls, long dataBytes, CallFactory call, String mpiOp) {
    }

    @FunctionalInterface
    interface CallFactory {
        /** The per-call action of this rank, with its data prepared once, outside the timing. */
        Consumer<Communicator> prepare(Communicator comm);
    }

    private record Row(Case c, CollectiveShape shape, Timed threads, CollectivesProcesses.Result processes) {
    }

    /** What one rank measured: ms per call of each timed round, and the seconds its warm-up took. */
    record Timed(double[] msPerCall, double warmUpS) {
        double medianMs() {
            double[] sorted = msPerCall.clone();
            Arrays.sort(sorted);
            return sorted[sorted.length / 2];
        }

        double bestMs() {
            return Arrays.stream(msPerCall).min().orElse(Double.NaN);
        }
    }

    private CollectivesBench() {
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : DEFAULT_ROUNDS;
        run(System.out, rounds);
    }

    static void run(PrintStream out, int rounds) {
        out.printf(Locale.ROOT, "CollectivesBench  java.version=%s  vm=%s  cores=%d  %d rounds after a warm-up until"
                + " no rank's JIT compiler spent %d ms in %d s (threads %.0f-%.0f s, processes %.0f-%.0f s)%n",
                System.getProperty("java.version"), System.getProperty("java.vm.name"),
                Runtime.getRuntime().availableProcessors(), rounds, WarmUp.QUIET_COMPILE_MS, WarmUp.WINDOW_MS / 1000,
                WARM_UP_NS / 1e9, LONGEST_WARM_UP_NS / 1e9, CollectivesProcesses.WARM_UP_NS / 1e9,
                CollectivesProcesses.LONGEST_WARM_UP_NS / 1e9);
        // The engine a rank takes (auto, or SPERLI_TLS_ENGINE): every byte of every link goes through it.
        out.println(CryptoEngine.select(null, System.getenv()).note());
        out.println("threads: every rank a thread of this JVM; processes: every rank its own JVM, started by sperli run"
                + " -n N as users run jobs (each JVM compiles alone); warm-up s: how long each took to be steady");
        Path mpi = buildMpi();
        out.println(mpi == null ? "Open MPI: mpicc or mpirun not installed, no baseline column"
                : "Open MPI: the same rounds in C (MPI_Allreduce, MPI_Bcast, MPI_Barrier), mpirun -np N over TCP");
        out.printf(Locale.ROOT, "%-26s %-5s %5s %6s %15s %13s %12s %15s %10s %9s %9s %12s%n", "case", "shape", "ranks",
                "calls", "threads ms/call", "best ms/call", "median MB/s", "processes ms/c", "MPI ms/c", "thr/MPI",
                "proc/MPI", "warm-up s");
        long started = System.nanoTime();
        List<Case> cases = cases();
        for (int i = 0; i < cases.size(); i++) {
            Case c = cases.get(i);
            double mpiMs = mpi == null ? Double.NaN : mpiMs(mpi, c, rounds);
            for (CollectiveShape shape : CollectiveShape.values()) {
                print(out, measure(c, shape, rounds, CollectivesProcesses.run(i, c.ranks(), rounds, shape)), mpiMs);
            }
        }
        out.printf(Locale.ROOT, "total %.1f s%n", (System.nanoTime() - started) / 1e9);
    }

    private static void print(PrintStream out, Row row, double mpiMs) {
        Case c = row.c();
        double threadsMs = row.threads().medianMs();
        double processesMs = row.processes().medianMs();
        out.printf(Locale.ROOT, "%-26s %-5s %5d %6d %15.3f %13.3f %12s %15s %10s %9s %9s %12s%n", c.label(),
                row.shape().name().toLowerCase(Locale.ROOT), c.ranks(), c.calls(), threadsMs, row.threads().bestMs(),
                c.dataBytes() == 0 ? "-" : String.format(Locale.ROOT, "%.1f", c.dataBytes() / 1e3 / threadsMs),
                figure(processesMs, "%.3f", "failed"), figure(mpiMs, "%.3f", "-"),
                figure(threadsMs / mpiMs, "%.2f", "-"), figure(processesMs / mpiMs, "%.2f", "-"),
                String.format(Locale.ROOT, "%.0f/%s", row.threads().warmUpS(),
                        figure(row.processes().warmUpS(), "%.0f", "-")));
    }

    /** The baseline binary, or null (Open MPI missing, or its build failed: said on the first line). */
    private static Path buildMpi() {
        try {
            return MpiCollectives.build();
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private static double mpiMs(Path binary, Case c, int rounds) {
        try {
            return MpiCollectives.medianMs(binary, c.mpiOp(), c.ranks(), c.dataBytes(), c.calls(), rounds,
                    WARM_UP_NS / 1e9);
        } catch (IOException e) {
            return Double.NaN;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Double.NaN;
        }
    }

    /** A figure, or {@code missing} where there is none (a run failed, or no baseline). */
    private static String figure(double value, String format, String missing) {
        return Double.isNaN(value) ? missing : String.format(Locale.ROOT, format, value);
    }

    static List<Case> cases() {
        int mib = 1 << 20;
        return List.of(
                allreduceF64(2, mib, 20),
                allreduceF64(4, mib, 10),
                allreduceF64(8, mib, 5),
                new Case("bcast 16 MiB-16 B (root 0)", 8, 3, MAX_DATA, rt -> {
                    byte[] data = rt.rank() == 0 ? new byte[MAX_DATA] : null;
                    return r -> r.bcast(0, data);
                }, "bcast"),
                new Case("barrier", 8, 200, 0, rt -> Communicator::barrier, "barrier"));
    }

    private static Case allreduceF64(int ranks, int bytes, int calls) {
        return new Case("allreduce f64 sum 1 MiB", ranks, calls, bytes, rt -> {
            byte[] data = f64(bytes, rt.rank());
            return r -> r.allreduce(data, ElementType.F64, ReduceOp.SUM);
        }, "allreduce");
    }

    /** Values in [-1, 1): sums of a few ranks stay finite and the fold does real float work. */
    static byte[] f64(int bytes, int rank) {
        ByteBuffer le = ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
        SplittableRandom random = new SplittableRandom(rank);
        while (le.hasRemaining()) {
            le.putDouble(random.nextDouble(-1.0, 1.0));
        }
        return le.array();
    }

    /** Runs the case in one job of threads; rank 0 times the rounds, the others keep step. */
    private static Row measure(Case c, CollectiveShape shape, int rounds, CollectivesProcesses.Result processes) {
        List<Timed> perRank = new InProcessJob(c.ranks()).collectives(shape).run(LIMIT,
                rt -> msPerCall(rt, c, rounds, new WarmUp(WARM_UP_NS, LONGEST_WARM_UP_NS)));
        return new Row(c, shape, perRank.get(0), processes);
    }

    /**
     * Every rank's side of a case: warm-up rounds until {@code warmUp} ends them (every rank runs the same number),
     * then {@code rounds} timed rounds; the time per call of each, which counts on rank 0.
     */
    static Timed msPerCall(Communicator comm, Case c, int rounds, WarmUp warmUp) {
        Consumer<Communicator> call = c.call().prepare(comm);
        comm.barrier();
        double warmUpS = warmUp.run(comm, () -> round(comm, call, c.calls()));
        double[] msPerCall = new double[rounds];
        for (int i = 0; i < rounds; i++) {
            msPerCall[i] = round(comm, call, c.calls()) / 1e6 / c.calls();
        }
        return new Timed(msPerCall, warmUpS);
    }

    private static long round(Communicator comm, Consumer<Communicator> call, int calls) {
        long t0 = System.nanoTime();
        for (int i = 0; i < calls; i++) {
            call.accept(comm);
        }
        comm.barrier();
        return System.nanoTime() - t0;
    }
}
