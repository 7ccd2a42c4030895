package org.sperli.bench;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.BiFunction;
import org.sperli.Communicator;
import org.sperli.ElementType;
import org.sperli.ReduceOp;
import org.sperli.crypto.CryptoEngine;
import org.sperli.runtime.CollectiveShape;

/**
 * Where the CPU of an allreduce (and of a bcast of 16 MiB) goes, rank by rank: a job whose ranks run the star of
 * protocol section 7.4 against one whose ranks run the mesh of section 7.4.1 (feature bit 1), which spreads the same
 * work over every rank: {@code scripts/bench allreduceshape [rounds]}. Every rank is a thread of this JVM (an
 * {@link InProcessJob}), each measuring its own thread's CPU over the timed calls; rank 0 also measures the wall time
 * and the CPU of the whole process.
 *
 * <p>Why: on a machine with fewer cores than ranks the wall time of a call follows the CPU of all ranks together, and
 * on a machine with a core per rank it follows the CPU of the busiest rank, which has to do its part alone. The
 * first is what {@code scripts/bench collectives} measures on this project's 2-core machine; this benchmark shows
 * the second, and that it is set by the protocol's shape, not by the machine: the star's root sends and receives
 * every byte of the call. Every rank's result of the mesh job is compared with the star job's, bit for bit (by hash).
 *
 * <p>A rank's thread does its own TLS and its share of the kernel's loopback work (the receive of a loopback write
 * is processed in the writer's system call); what the thread columns leave out (JIT, GC, the connections' keeper
 * threads) is in the process column.
 */
public final class AllreduceShapeBench {
    private static final int DATA_BYTES = 1 << 20;
    private static final int CALLS = 10;
    private static final int DEFAULT_ROUNDS = 9;
    private static final long WARM_UP_NS = 6_000_000_000L;
    private static final long LONGEST_WARM_UP_NS = 60_000_000_000L;
    private static final Duration LIMIT = Duration.ofSeconds(300);
    /** The cases: an allreduce of 1 MiB f64 at 4 and 8 ranks, a bcast of the largest data from rank 0 at 8. */
    private static final List<Case> CASES = List.of(
            new Case("allreduce 1 MiB", 4, DATA_BYTES, (comm, data) -> comm.allreduce(data, ElementType.F64,
                    ReduceOp.SUM)),
            new Case("allreduce 1 MiB", 8, DATA_BYTES, (comm, data) -> comm.allreduce(data, ElementType.F64,
                    ReduceOp.SUM)),
            new Case("bcast 16 MiB", 8, Communicator.MAX_COLLECTIVE_DATA,
                    (comm, data) -> comm.bcast(0, comm.rank() == 0 ? data : null)));

    /** One collective call of every rank with its data, giving this rank's result. */
    private record Case(String label, int ranks, int bytes, BiFunction<Communicator, byte[], byte[]> call) {
    }

    /**
     * Medians over the timed rounds: rank 0's wall and process CPU, every rank's own thread CPU, ms per call; and
     * the hash of every rank's result bits, which the star and the mesh must share.
     */
    private record Row(CollectiveShape shape, Case c, double wallMs, double processCpuMs, double[] threadCpuMs,
                       List<Integer> results) {
        String label() {
            return shape.name().toLowerCase(Locale.ROOT);
        }

        double busiestMs() {
            return Arrays.stream(threadCpuMs).max().orElse(Double.NaN);
        }

        /** The busiest rank's CPU over the mean of all ranks': 1 when the work is spread evenly. */
        double busiestOverMean() {
            return busiestMs() / Arrays.stream(threadCpuMs).average().orElse(Double.NaN);
        }

        double othersMs() {
            return LaunchBench.median(Arrays.copyOfRange(threadCpuMs, 1, threadCpuMs.length));
        }
    }

    private AllreduceShapeBench() {
    }

    public static void main(String[] args) {
        run(System.out, args.length > 0 ? Integer.parseInt(args[0]) : DEFAULT_ROUNDS);
    }

    static void run(PrintStream out, int rounds) {
        out.printf(Locale.ROOT, "AllreduceShapeBench  java.version=%s  cores=%d  allreduce f64 sum, bcast from rank"
                + " 0; %d rounds of %d calls after a warm-up until no rank's JIT compiler is busy%n",
                System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(), rounds, CALLS);
        out.println(CryptoEngine.select(null, System.getenv()).note());
        out.println("star: protocol section 7.4 (rank 0 folds every contribution and sends every result); mesh:"
                + " section 7.4.1 (segments to their owners, fold in rank order, allgather), same result bytes");
        out.printf(Locale.ROOT, "%-16s %-6s %5s %12s %16s %18s %14s %16s%n", "case", "shape", "ranks",
                "wall ms/call", "CPU ms/call, all", "busiest rank ms/c", "rank 0 ms/c", "other ranks ms/c");
        for (Case c : CASES) {
            Row star = measure(CollectiveShape.STAR, c, rounds);
            Row mesh = measure(CollectiveShape.MESH, c, rounds);
            if (!star.results().equals(mesh.results())) {
                throw new IllegalStateException(c.label() + ", " + c.ranks() + " ranks: the mesh's results differ"
                        + " from the star's");
            }
            for (Row row : List.of(star, mesh)) {
                out.printf(Locale.ROOT, "%-16s %-6s %5d %12.3f %16.3f %18.3f %14.3f %16.3f%n", c.label(), row.label(),
                        c.ranks(), row.wallMs(), row.processCpuMs(), row.busiestMs(), row.threadCpuMs()[0],
                        row.othersMs());
            }
            out.printf(Locale.ROOT, "  %s, %d ranks, mesh / star: busiest rank %.2f (a call's floor with a core per"
                    + " rank), CPU in all %.2f, wall here %.2f%n", c.label(), c.ranks(),
                    mesh.busiestMs() / star.busiestMs(), mesh.processCpuMs() / star.processCpuMs(),
                    mesh.wallMs() / star.wallMs());
            out.printf(Locale.ROOT, "  %s, %d ranks, busiest rank's CPU / mean of the ranks: star %.2f, mesh %.2f%n",
                    c.label(), c.ranks(), star.busiestOverMean(), mesh.busiestOverMean());
        }
    }

    private static Row measure(CollectiveShape shape, Case c, int rounds) {
        List<double[]> perRank = new InProcessJob(c.ranks()).collectives(shape).run(LIMIT,
                comm -> timed(comm, c, rounds));
        double[] threadCpu = perRank.stream().mapToDouble(r -> r[1]).toArray();
        return new Row(shape, c, perRank.get(0)[0], perRank.get(0)[2], threadCpu,
                perRank.stream().map(r -> (int) r[3]).toList());
    }

    /**
     * This rank's medians: wall ms per call, its thread's CPU ms per call, the process's CPU ms per call; and the
     * hash of its result's bits.
     */
    private static double[] timed(Communicator comm, Case c, int rounds) {
        byte[] data = CollectivesBench.f64(c.bytes(), comm.rank());
        int result = Arrays.hashCode(c.call().apply(comm, data));
        new WarmUp(WARM_UP_NS, LONGEST_WARM_UP_NS).run(comm, () -> calls(comm, c, data));
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        double[] wall = new double[rounds];
        double[] threadCpu = new double[rounds];
        double[] processCpu = new double[rounds];
        for (int i = 0; i < rounds; i++) {
            comm.barrier();
            long t0 = System.nanoTime();
            long process0 = os.getProcessCpuTime();
            long thread0 = threads.getCurrentThreadCpuTime();
            calls(comm, c, data);
            threadCpu[i] = (threads.getCurrentThreadCpuTime() - thread0) / 1e6 / CALLS;
            comm.barrier();
            wall[i] = (System.nanoTime() - t0) / 1e6 / CALLS;
            processCpu[i] = (os.getProcessCpuTime() - process0) / 1e6 / CALLS;
        }
        return new double[] {LaunchBench.median(wall), LaunchBench.median(threadCpu), LaunchBench.median(processCpu),
            result};
    }

    private static void calls(Communicator comm, Case c, byte[] data) {
        for (int i = 0; i < CALLS; i++) {
            c.call().apply(comm, data);
        }
    }
}
