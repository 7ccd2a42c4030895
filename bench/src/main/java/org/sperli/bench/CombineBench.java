package org.sperli.bench;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.BiConsumer;
import org.sperli.ArrayType;
import org.sperli.ElementType;
import org.sperli.ReduceOp;
import org.sperli.array.ArrayTypes;
import org.sperli.collective.Combine;

/**
 * Throughput of {@link Combine#into(ByteBuffer, ByteBuffer, ElementType, ReduceOp)} on 16 MiB contributions, heap and
 * direct buffers, and of the typed form on the same elements in a primitive array ({@code double[]}, {@code int[]},
 * ...; "array" in the buffers column): {@code scripts/bench combine [timedRuns]}.
 *
 * <p>GB/s is 10^9 bytes of the accumulator processed per second (b is read as well, so memory traffic is three times
 * that). Each case is warmed up for {@link #WARM_UP_NS} and {@link #WARM_UP_CALLS} calls at least, then timed
 * {@code timedRuns} times (default 31); best and median are reported. The accumulator is not reset between calls:
 * the data are chosen so that repeated folding stays finite, and each call does the same work. "alloc B/call" is
 * what the calling thread allocated per timed call (two slice objects are expected; nothing per element).
 */
public final class CombineBench {
    private static final int DATA_BYTES = 16 * 1024 * 1024;
    private static final long WARM_UP_NS = 400_000_000L;
    private static final int WARM_UP_CALLS = 20;
    private static final int DEFAULT_TIMED_RUNS = 31;

    private record Case(ElementType type, ReduceOp op) {
        String label() {
            return type.name().toLowerCase(Locale.ROOT) + " " + op.name().toLowerCase(Locale.ROOT);
        }
    }

    private record Row(String label, String buffers, double bestGbs, double medianGbs, long allocPerCall) {
    }

    /** Where the elements are: a heap or direct {@code ByteBuffer} (the byte form), or a primitive array. */
    private enum Form {
        HEAP, DIRECT, ARRAY;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private static final List<Case> CASES = List.of(
            new Case(ElementType.F64, ReduceOp.SUM),
            new Case(ElementType.I32, ReduceOp.BXOR),
            new Case(ElementType.I64, ReduceOp.SUM),
            new Case(ElementType.F32, ReduceOp.MAX));

    private CombineBench() {
    }

    public static void main(String[] args) {
        int timedRuns = args.length > 0 ? Integer.parseInt(args[0]) : DEFAULT_TIMED_RUNS;
        run(System.out, timedRuns);
    }

    static void run(PrintStream out, int timedRuns) {
        out.printf(Locale.ROOT, "CombineBench  java.version=%s  vm=%s  %d MiB per call, %d timed runs after warm-up%n",
                System.getProperty("java.version"), System.getProperty("java.vm.name"), DATA_BYTES >> 20, timedRuns);
        out.printf(Locale.ROOT, "%-10s %-7s %10s %12s %14s%n", "case", "buffers", "best GB/s", "median GB/s",
                "alloc B/call");
        long started = System.nanoTime();
        for (Case c : CASES) {
            for (Form form : Form.values()) {
                Row row = measure(c, form, timedRuns);
                out.printf(Locale.ROOT, "%-10s %-7s %10.2f %12.2f %14d%n", row.label(), row.buffers(), row.bestGbs(),
                        row.medianGbs(), row.allocPerCall());
            }
        }
        out.printf(Locale.ROOT, "total %.1f s%n", (System.nanoTime() - started) / 1e9);
    }

    private static Row measure(Case c, Form form, int timedRuns) {
        Runnable call = prepare(c, form);

        long warmUpEnd = System.nanoTime() + WARM_UP_NS;
        for (int i = 0; i < WARM_UP_CALLS || System.nanoTime() < warmUpEnd; i++) {
            call.run();
        }

        long[] ns = new long[timedRuns];
        long allocBefore = threadAllocatedBytes();
        for (int i = 0; i < timedRuns; i++) {
            long t0 = System.nanoTime();
            call.run();
            ns[i] = System.nanoTime() - t0;
        }
        long allocated = threadAllocatedBytes() - allocBefore - allocationOfTheProbe();
        Arrays.sort(ns);
        return new Row(c.label(), form.label(), DATA_BYTES / (double) ns[0],
                DATA_BYTES / (double) ns[timedRuns / 2], allocBefore < 0 ? -1 : allocated / timedRuns);
    }

    /** One combine of the case's two contributions, in place into the first, in the given form. */
    private static Runnable prepare(Case c, Form form) {
        ByteBuffer acc = form == Form.DIRECT ? ByteBuffer.allocateDirect(DATA_BYTES) : ByteBuffer.allocate(DATA_BYTES);
        ByteBuffer b = form == Form.DIRECT ? ByteBuffer.allocateDirect(DATA_BYTES) : ByteBuffer.allocate(DATA_BYTES);
        fill(acc, c.type(), 1);
        fill(b, c.type(), 2);
        if (form != Form.ARRAY) {
            return () -> Combine.into(acc, b, c.type(), c.op());
        }
        byte[] x = acc.array();
        byte[] y = b.array();
        ReduceOp op = c.op();
        return switch (c.type()) {
            case F64 -> typed(ArrayTypes.F64, x, y, (xs, ys) -> Combine.into(xs, ys, op));
            case F32 -> typed(ArrayTypes.F32, x, y, (xs, ys) -> Combine.into(xs, ys, op));
            case I32 -> typed(ArrayTypes.I32, x, y, (xs, ys) -> Combine.into(xs, ys, op, false));
            case U32 -> typed(ArrayTypes.U32, x, y, (xs, ys) -> Combine.into(xs, ys, op, true));
            case I64 -> typed(ArrayTypes.I64, x, y, (xs, ys) -> Combine.into(xs, ys, op, false));
            case U64 -> typed(ArrayTypes.U64, x, y, (xs, ys) -> Combine.into(xs, ys, op, true));
            case BYTES -> throw new IllegalArgumentException("bytes have no typed form");
        };
    }

    /** The typed form on the elements that {@code x} and {@code y} encode (flat types: little-endian elements). */
    private static <T> Runnable typed(ArrayType<T> type, byte[] x, byte[] y, BiConsumer<T, T> into) {
        T xs = type.fromBytes(x);
        T ys = type.fromBytes(y);
        return () -> into.accept(xs, ys);
    }

    /** Values that stay finite however often they are folded: floats in [-1, 1), integers anywhere (they wrap). */
    private static void fill(ByteBuffer buffer, ElementType type, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        ByteBuffer le = buffer.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < DATA_BYTES; i += type.width()) {
            switch (type) {
                case F64 -> le.putDouble(i, random.nextDouble(-1.0, 1.0));
                case F32 -> le.putFloat(i, (float) random.nextDouble(-1.0, 1.0));
                case I32, U32 -> le.putInt(i, random.nextInt());
                case I64, U64 -> le.putLong(i, random.nextLong());
                case BYTES -> le.put(i, (byte) random.nextInt());
            }
        }
    }

    /** What one {@link #threadAllocatedBytes()} call allocates itself, so that it is not charged to the kernel. */
    private static long allocationOfTheProbe() {
        long first = threadAllocatedBytes();
        return Math.max(0, threadAllocatedBytes() - first);
    }

    /** Bytes allocated so far by this thread, or -1 where the JVM does not tell. */
    private static long threadAllocatedBytes() {
        if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean bean) {
            return bean.getCurrentThreadAllocatedBytes();
        }
        return -1;
    }
}
