package org.sperli.bench;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
import org.sperli.Communicator;
import org.sperli.ElementType;
import org.sperli.ReduceOp;

/**
 * The warm-up of a collectives case: rounds until the JIT compiler of every rank is quiet, within a shortest and a
 * longest time. A fixed time did not tell the truth: 8 rank processes on 2 cores took 30 s until their compilers were
 * done (allreduce of 1 MiB: 33 ms per call after 12 s, 25 after 30 s, 13 to 14 from 30 s on, in one job), because
 * every JVM compiles the same code alone while all of them share the cores; a steady figure stood out only once no
 * rank compiled any more.
 *
 * <p>Quiet: the JVM spent less than {@value #QUIET_COMPILE_MS} ms compiling in the last {@value #WINDOW_MS} ms (the
 * compilers' own time, {@link CompilationMXBean#getTotalCompilationTime}). Every rank says whether it is quiet in each
 * round (an allreduce of the minimum), and rank 0 ends the warm-up for all (a bcast), so that every rank runs the
 * same rounds.
 */
final class WarmUp {
    static final long WINDOW_MS = 3000;
    static final long QUIET_COMPILE_MS = 30;

    private final long shortestNs;
    private final long longestNs;

    WarmUp(long shortestNs, long longestNs) {
        this.shortestNs = shortestNs;
        this.longestNs = longestNs;
    }

    /** Runs {@code round} until warm; returns the seconds it took, as rank 0 measured them (the same at every rank). */
    double run(Communicator comm, Runnable round) {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        boolean timed = jit != null && jit.isCompilationTimeMonitoringSupported();
        // Samples of (time ms, compile ms) reaching back one window.
        ArrayDeque<long[]> window = new ArrayDeque<>();
        long start = System.nanoTime();
        while (true) {
            round.run();
            long nowMs = (System.nanoTime() - start) / 1_000_000;
            window.addLast(new long[] {nowMs, timed ? jit.getTotalCompilationTime() : 0});
            while (window.size() > 1 && nowMs - secondOf(window)[0] >= WINDOW_MS) {
                window.removeFirst();
            }
            long[] first = window.peekFirst();
            boolean quiet = !timed || (nowMs - first[0] >= WINDOW_MS
                    && window.peekLast()[1] - first[1] < QUIET_COMPILE_MS);
            boolean allQuiet = minimum(comm, quiet ? 1 : 0) == 1;
            ByteBuffer verdict = ByteBuffer.wrap(comm.bcast(0, comm.rank() == 0
                    ? verdict(System.nanoTime() - start, allQuiet) : null));
            if (verdict.get(0) == 0) {
                return verdict.getLong(1) / 1e9;
            }
        }
    }

    /** Rank 0's word: 1 for another round, 0 for done, then the warm-up's nanoseconds so far. */
    private byte[] verdict(long elapsedNs, boolean allQuiet) {
        boolean more = elapsedNs < shortestNs || (elapsedNs < longestNs && !allQuiet);
        return ByteBuffer.allocate(9).put((byte) (more ? 1 : 0)).putLong(elapsedNs).array();
    }

    private static long[] secondOf(ArrayDeque<long[]> window) {
        var it = window.iterator();
        it.next();
        return it.next();
    }

    private static int minimum(Communicator comm, int value) {
        byte[] mine = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(value).array();
        return ByteBuffer.wrap(comm.allreduce(mine, ElementType.I32, ReduceOp.MIN)).order(ByteOrder.LITTLE_ENDIAN)
                .getInt();
    }
}
