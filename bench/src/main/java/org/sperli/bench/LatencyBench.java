package org.sperli.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.sperli.crypto.CryptoEngine;
import org.sperli.identity.TlsSockets;

/**
 * The tail of a small message's latency, SPERLI against bare JSSE, measured so that both see the same machine:
 * {@code scripts/bench latency [--rounds N]}.
 *
 * <p>Why a benchmark of its own. On a machine with few cores the scheduler decides most of a ping-pong's time: whether
 * the two threads share a core (then a blocking read hands over at once, and a waiting thread that polls only delays
 * the peer it waits for) or sit on two (then each hand-over wakes a sleeping core, 30-40 us here, which polling
 * avoids). Which of the two the scheduler picks changes within a run and between runs, and it is not the same for two
 * stacks measured one after the other, so a table that measures SPERLI, then JSSE, compares two different machines.
 * Here both connections are open at once, and blocks of {@value #BLOCK} samples of each alternate (the order swapped
 * every round); each placement is measured three ways: as the scheduler places the threads, and with both threads
 * pinned to one core and to two cores ({@code taskset} on the two threads; skipped, with the reason, where that is
 * not possible). Before anything is timed the JIT compiler must be quiet ({@link JitQuiet}: less than 20 ms of
 * compiling in 2 s): the two stacks' paths took 70 000-110 000 round trips (5-10 s) to be
 * compiled on this machine, and measured before that (5000 round trips), SPERLI's p99 was the compiler's.
 *
 * <p>Latency is half the round trip of an 8-byte message, as in {@link TransportBench}; the same
 * {@link TransportBench.Link} code drives both stacks. {@code CPU} is the CPU time of the two ping-pong threads in the
 * timed blocks per message (each thread reads its own): with both on one core nothing waits for a wake-up, so latency
 * there is this CPU, the cost of a message in both processes; on two cores a thread that polls counts its polls too.
 * Each row also says what the timed blocks shared the machine with: the JIT compiler's time and the collections.
 */
public final class LatencyBench {
    static final int BLOCK = 1000;
    static final int SIZE = 8;
    private static final long LONGEST_WARM_UP_MS = 60_000;
    private static final Duration LIMIT = Duration.ofMinutes(10);
    private static final double[] PERCENTILES = {0.5, 0.9, 0.99, 0.999};

    private LatencyBench() {
    }

    /** Where the two threads run. */
    enum Placement {
        SCHEDULED("as scheduled"), ONE_CORE("one core"), TWO_CORES("two cores");

        final String label;

        Placement(String label) {
            this.label = label;
        }
    }

    /** {@code scripts/bench latency [--rounds N]}. */
    public static void main(String[] args) throws Exception {
        int rounds = 20;
        if (args.length == 2 && args[0].equals("--rounds") && args[1].matches("[1-9][0-9]{0,2}")) {
            rounds = Integer.parseInt(args[1]);
        } else if (args.length != 0) {
            System.err.println("usage: scripts/bench latency [--rounds N]   (N from 1 to 999, blocks of " + BLOCK
                    + " samples per stack and placement)");
            System.exit(2);
        }
        run(System.out, rounds);
        System.exit(0);
    }

    static void run(PrintStream out, int rounds) throws Exception {
        long started = System.nanoTime();
        out.printf(Locale.ROOT, "LatencyBench  java.version=%s  vm=%s  cores=%d%n", System.getProperty("java.version"),
                System.getProperty("java.vm.name"), Runtime.getRuntime().availableProcessors());
        out.printf(Locale.ROOT, "8 B ping-pong, half round trip in us; SPERLI and bare JSSE open at once, %d blocks"
                + " of %d samples each per placement, alternating; CPU: both threads' CPU time per message, in us%n",
                rounds, BLOCK);
        out.printf(Locale.ROOT, "%-6s %-13s %-7s %7s %7s %7s %7s %7s %7s   %9s %9s %6s %4s%n", "engine", "placement",
                "stack", "p50", "p90", "p99", "p99.9", "mean", "CPU", "p50/JSSE", "p99/JSSE", "JIT ms", "GCs");
        for (CryptoEngine.Name name : CryptoEngine.Name.values()) {
            CryptoEngine.Choice choice = CryptoEngine.switchTo(name);
            if (choice.engine() != name) {
                out.println("(" + choice.note() + ": no " + name.word() + " rows)");
                continue;
            }
            measureEngine(out, name.word(), rounds);
        }
        CryptoEngine.switchTo(CryptoEngine.Name.JDK);
        out.printf(Locale.ROOT, "total %.1f s%n", (System.nanoTime() - started) / 1e9);
    }

    private static void measureEngine(PrintStream out, String engine, int rounds) throws Exception {
        InProcessJob job = new InProcessJob(2);
        Socket[] sockets = jssePair(job);
        Pinning pinning = Pinning.probe();
        Shared shared = new Shared(rounds);
        try {
            job.run(LIMIT, runtime -> {
                int rank = runtime.rank();
                TransportBench.Link[] links = {new TransportBench.SperliLink(runtime), streamLink(sockets[rank])};
                shared.warmUp(rank, links);
                for (Placement p : Placement.values()) {
                    shared.place(rank, p, pinning);
                    shared.measure(rank, p, links);
                }
                return null;
            });
        } finally {
            for (Socket s : sockets) {
                s.close();
            }
        }
        for (Placement p : Placement.values()) {
            String skip = shared.skipped[p.ordinal()];
            if (skip != null) {
                out.printf(Locale.ROOT, "%-6s %-13s not measured: %s%n", engine, p.label, skip);
                continue;
            }
            double[] sperli = percentiles(shared.samples[p.ordinal()][0]);
            double[] jsse = percentiles(shared.samples[p.ordinal()][1]);
            row(out, engine, p.label, "SPERLI", sperli, String.format(Locale.ROOT, "%9.2f %9.2f",
                    sperli[0] / jsse[0], sperli[2] / jsse[2]), shared, p);
            row(out, engine, "", "JSSE", jsse, String.format(Locale.ROOT, "%9s %9s", "", ""), shared, p);
        }
        out.printf(Locale.ROOT, "%-6s warm-up %.1f s (%d round trips a stack) until the JIT was quiet%s%n", engine,
                shared.warmUpNs / 1e9, shared.warmUpTrips, shared.warmUpQuiet ? "" : " (it never was: bounded)");
    }

    private static void row(PrintStream out, String engine, String placement, String stack, double[] p, String ratios,
                            Shared shared, Placement where) {
        int s = stack.equals("SPERLI") ? 0 : 1;
        double cpuUs = shared.cpuNs[where.ordinal()][s] / 1e3 / (2.0 * shared.rounds * BLOCK);
        out.printf(Locale.ROOT, "%-6s %-13s %-7s %7.1f %7.1f %7.1f %7.1f %7.1f %7.1f   %s %6d %4d%n",
                stack.equals("SPERLI") ? engine : "", placement, stack, p[0], p[1], p[2], p[3], p[4], cpuUs, ratios,
                stack.equals("SPERLI") ? shared.jitMs[where.ordinal()] : 0,
                stack.equals("SPERLI") ? shared.gcs[where.ordinal()] : 0);
    }

    /** p50, p90, p99, p99.9 and the mean, in us of half a round trip. */
    static double[] percentiles(long[] roundTrips) {
        long[] s = roundTrips.clone();
        Arrays.sort(s);
        double[] r = new double[PERCENTILES.length + 1];
        for (int i = 0; i < PERCENTILES.length; i++) {
            r[i] = s[Math.max(0, (int) Math.ceil(s.length * PERCENTILES[i]) - 1)] / 2e3;
        }
        r[PERCENTILES.length] = Arrays.stream(s).average().orElse(0) / 2e3;
        return r;
    }

    /** What the two rank threads share: the barrier they meet at between blocks, and what rank 0 measured. */
    private static final class Shared {
        final int rounds;
        final CyclicBarrier meet = new CyclicBarrier(2);
        final long[][][] samples;
        final String[] skipped = new String[Placement.values().length];
        final long[] jitMs = new long[Placement.values().length];
        final long[] gcs = new long[Placement.values().length];
        /** CPU time of both ping-pong threads in each stack's timed blocks, per placement. */
        final long[][] cpuNs = new long[Placement.values().length][2];
        final int[] tids = new int[2];
        volatile boolean warm;
        long warmUpNs;
        long warmUpTrips;
        boolean warmUpQuiet;

        Shared(int rounds) {
            this.rounds = rounds;
            this.samples = new long[Placement.values().length][2][rounds * BLOCK];
        }

        void await() {
            try {
                meet.await(LIMIT.toSeconds(), TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            } catch (BrokenBarrierException | TimeoutException e) {
                throw new IllegalStateException("the other rank thread did not come", e);
            }
        }

        /** Blocks of both stacks until rank 0 saw the JIT quiet for a whole window (bounded). */
        void warmUp(int rank, TransportBench.Link[] links) {
            byte[] msg = TransportBench.filled(SIZE);
            byte[] in = new byte[SIZE];
            JitQuiet jit = new JitQuiet();
            long began = System.nanoTime();
            long trips = 0;
            while (!warm) {
                for (TransportBench.Link link : links) {
                    TransportBench.pingPong(link, rank == 0, msg, in, BLOCK, null);
                }
                trips += BLOCK;
                if (rank == 0) {
                    long now = System.nanoTime();
                    warmUpQuiet = jit.quietNow();
                    if (warmUpQuiet || now - began > LONGEST_WARM_UP_MS * 1_000_000L) {
                        warm = true;
                        warmUpNs = now - began;
                        warmUpTrips = trips;
                    }
                }
                await();
            }
        }

        void place(int rank, Placement p, Pinning pinning) {
            tids[rank] = Pinning.ownThreadId();
            await();
            if (rank == 0) {
                skipped[p.ordinal()] = pinning.pin(p, tids);
            }
            await();
        }

        void measure(int rank, Placement p, TransportBench.Link[] links) {
            if (skipped[p.ordinal()] != null) {
                return;
            }
            byte[] msg = TransportBench.filled(SIZE);
            byte[] in = new byte[SIZE];
            // A placement's first block lets the threads settle where they were put; it is not counted.
            for (TransportBench.Link link : links) {
                TransportBench.pingPong(link, rank == 0, msg, in, BLOCK, null);
            }
            long[] block = new long[BLOCK];
            JitQuiet jit = new JitQuiet();
            long jit0 = jit.compileMs();
            long gc0 = collections();
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            long[] cpu = new long[2];
            for (int round = 0; round < rounds; round++) {
                for (int k = 0; k < 2; k++) {
                    int stack = (round + k) % 2;
                    long cpu0 = threads.getCurrentThreadCpuTime();
                    TransportBench.pingPong(links[stack], rank == 0, msg, in, BLOCK, rank == 0 ? block : null);
                    cpu[stack] += threads.getCurrentThreadCpuTime() - cpu0;
                    if (rank == 0) {
                        System.arraycopy(block, 0, samples[p.ordinal()][stack], round * BLOCK, BLOCK);
                    }
                }
            }
            synchronized (cpuNs) {
                cpuNs[p.ordinal()][0] += cpu[0];
                cpuNs[p.ordinal()][1] += cpu[1];
            }
            if (rank == 0) {
                jitMs[p.ordinal()] = jit.compileMs() - jit0;
                gcs[p.ordinal()] = collections() - gc0;
            }
            await();
        }
    }

    static long collections() {
        long n = 0;
        for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
            n += Math.max(0, b.getCollectionCount());
        }
        return n;
    }

    /** Puts the two rank threads on cores with {@code taskset} (Linux), or says why it cannot. */
    static final class Pinning {
        private final int[] cpus;
        private final String unavailable;

        private Pinning(int[] cpus, String unavailable) {
            this.cpus = cpus;
            this.unavailable = unavailable;
        }

        static Pinning probe() {
            if (ownThreadId() < 0) {
                return new Pinning(new int[0], "no /proc/thread-self (not Linux)");
            }
            try {
                Process p = new ProcessBuilder("taskset", "-p", "-c", String.valueOf(ProcessHandle.current().pid()))
                        .redirectErrorStream(true).start();
                String text = new String(p.getInputStream().readAllBytes()).trim();
                if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
                    return new Pinning(new int[0], "taskset failed: " + text);
                }
                int[] allowed = parseList(text.substring(text.lastIndexOf(':') + 1).trim());
                return new Pinning(allowed, null);
            } catch (IOException e) {
                return new Pinning(new int[0], "no taskset (" + e.getMessage() + ")");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new Pinning(new int[0], "interrupted");
            }
        }

        /** "0-3,6" as CPUs. */
        static int[] parseList(String list) {
            List<Integer> out = new ArrayList<>();
            for (String part : list.split(",")) {
                String[] range = part.trim().split("-");
                int from = Integer.parseInt(range[0].trim());
                int to = range.length > 1 ? Integer.parseInt(range[1].trim()) : from;
                for (int c = from; c <= to; c++) {
                    out.add(c);
                }
            }
            return out.stream().mapToInt(Integer::intValue).toArray();
        }

        /** Pins (or frees) both threads for {@code p}; null when done, else why the placement is not measured. */
        String pin(Placement p, int[] tids) {
            if (p == Placement.SCHEDULED) {
                if (cpus.length == 0) {
                    return null;
                }
                String first = set(tids[0], join(cpus));
                return first != null ? first : set(tids[1], join(cpus));
            }
            if (unavailable != null) {
                return unavailable;
            }
            if (p == Placement.TWO_CORES && cpus.length < 2) {
                return "one core only";
            }
            String first = set(tids[0], String.valueOf(cpus[0]));
            if (first != null) {
                return first;
            }
            return set(tids[1], String.valueOf(p == Placement.ONE_CORE ? cpus[0] : cpus[1]));
        }

        private static String join(int[] cpus) {
            StringBuilder b = new StringBuilder();
            for (int c : cpus) {
                b.append(b.length() == 0 ? "" : ",").append(c);
            }
            return b.toString();
        }

        private static String set(int tid, String cpuList) {
            try {
                Process p = new ProcessBuilder("taskset", "-p", "-c", cpuList, String.valueOf(tid))
                        .redirectErrorStream(true).start();
                String text = new String(p.getInputStream().readAllBytes()).trim();
                if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
                    return "taskset failed: " + text;
                }
                return null;
            } catch (IOException e) {
                return "no taskset (" + e.getMessage() + ")";
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return "interrupted";
            }
        }

        /** The calling thread's Linux thread id, or -1. */
        static int ownThreadId() {
            try {
                // /proc/thread-self is a link to /proc/PID/task/TID.
                Path self = Files.readSymbolicLink(Path.of("/proc/thread-self"));
                return Integer.parseInt(self.getFileName().toString());
            } catch (IOException | RuntimeException e) {
                return -1;
            }
        }
    }

    private static TransportBench.Link streamLink(Socket socket) {
        try {
            return new TransportBench.StreamLink(socket);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A bare JSSE connection between the two ranks' identities (rank 1 serves, rank 0 dials), as in TransportBench. */
    private static Socket[] jssePair(InProcessJob job) throws Exception {
        SSLContext c0 = job.socketContext(0);
        SSLContext c1 = job.socketContext(1);
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        try (ServerSocket server = TlsSockets.listen(c1, 0, 1, loopback)) {
            CompletableFuture<Socket> accepted = CompletableFuture.supplyAsync(() -> {
                try {
                    Socket s = server.accept();
                    ((SSLSocket) s).startHandshake();
                    return s;
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            Socket plain = new Socket(loopback, server.getLocalPort());
            SSLSocket dialled = (SSLSocket) TlsSockets.layer(c0, plain, "127.0.0.1", server.getLocalPort());
            dialled.startHandshake();
            return new Socket[] {dialled, accepted.get(LIMIT.toSeconds(), TimeUnit.SECONDS)};
        }
    }
}
