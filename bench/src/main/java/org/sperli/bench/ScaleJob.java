package org.sperli.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Stream;
import org.sperli.Communicator;
import org.sperli.ElementType;
import org.sperli.ReduceOp;
import org.sperli.SperliJob;

/**
 * The real rank's program in {@link ScaleBench}: {@code SETTLE_SECONDS IDLE_SECONDS ROUNDS}. Runs
 * {@link ScaleSchedule}'s calls and measures itself in between, because only the process itself sees its heap after a
 * collection: once all are connected, the heap; then, after {@code SETTLE_SECONDS} with nothing to do, another
 * {@code IDLE_SECONDS} with nothing to do but heartbeats, its CPU over that window and the heap, threads, descriptors
 * and resident memory (what idle connections hold); then the medians of the
 * timed barriers and allreduces. Prints one line {@value #RESULT} with the figures.
 */
public final class ScaleJob implements SperliJob {
    /** The start of the result line. */
    static final String RESULT = "scale-result ";

    @Override
    public void run(Communicator comm, String[] args) {
        long settleNanos = Long.parseLong(args[0]) * 1_000_000_000L;
        long idleNanos = Long.parseLong(args[1]) * 1_000_000_000L;
        ScaleSchedule schedule = new ScaleSchedule(Integer.parseInt(args[2]));
        comm.barrier();
        long connectedHeap = heapAfterCollection();
        // The JIT compilers are still busy with the setup's code for a while; their work is not the idle cost.
        sleepNanos(settleNanos);
        long cpu0 = processCpuNanos();
        long t0 = System.nanoTime();
        sleepNanos(idleNanos);
        double idleCpu = (processCpuNanos() - cpu0) / (double) (System.nanoTime() - t0);
        long idleHeap = heapAfterCollection();
        long threads = statusField("Threads:");
        long fds = openDescriptors();
        long rssKb = statusField("VmRSS:");
        comm.barrier();
        double[] barrier = new double[schedule.rounds()];
        for (int i = 0; i < barrier.length; i++) {
            long s = System.nanoTime();
            comm.barrier();
            barrier[i] = (System.nanoTime() - s) / 1e6;
        }
        double[] allreduce = new double[schedule.rounds()];
        byte[] one = ByteBuffer.allocate(ScaleSchedule.ALLREDUCE_BYTES).order(ByteOrder.LITTLE_ENDIAN).putDouble(1.0)
                .array();
        for (int i = 0; i < allreduce.length; i++) {
            long s = System.nanoTime();
            byte[] sum = comm.allreduce(one, ElementType.F64, ReduceOp.SUM);
            allreduce[i] = (System.nanoTime() - s) / 1e6;
            double got = ByteBuffer.wrap(sum).order(ByteOrder.LITTLE_ENDIAN).getDouble();
            if (got != comm.size()) {
                throw new IllegalStateException("allreduce gave " + got + ", expected " + comm.size());
            }
        }
        System.out.println(RESULT + String.format(Locale.ROOT, "%d %d %d %d %d %.4f %.4f %.4f", connectedHeap,
                idleHeap, threads, fds, rssKb, idleCpu, median(barrier), median(allreduce)));
    }

    /** Used heap after two full collections: what live objects hold, not what garbage waits. */
    private static long heapAfterCollection() {
        Runtime rt = Runtime.getRuntime();
        System.gc();
        System.gc();
        return rt.totalMemory() - rt.freeMemory();
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static long openDescriptors() {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        } catch (IOException e) {
            return -1;
        }
    }

    /** A number of this process's {@code /proc/self/status} (threads of the JVM's own too, resident KiB). */
    private static long statusField(String name) {
        try (Stream<String> lines = Files.lines(Path.of("/proc/self/status"))) {
            return lines.filter(l -> l.startsWith(name)).mapToLong(l -> Long.parseLong(l.replaceAll("\\D", "")))
                    .findFirst().orElse(-1);
        } catch (IOException e) {
            return -1;
        }
    }

    private static void sleepNanos(long nanos) {
        try {
            Thread.sleep(nanos / 1_000_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted in the idle window");
        }
    }

    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
