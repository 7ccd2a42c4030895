package org.sperli.bench;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.function.ToDoubleFunction;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSocket;
import org.sperli.crypto.CryptoEngine;
import org.sperli.identity.TlsSockets;
import org.sperli.runtime.RankConfig;
import org.sperli.runtime.RankRuntime;
import org.sperli.transport.TlsEngineFactory;

/**
 * Point-to-point cost of the SPERLI transport against its two baselines, in one run: {@code scripts/bench transport}.
 *
 * <ul>
 *   <li>SPERLI: two {@link RankRuntime} ranks of one {@link InProcessJob} over loopback TLS 1.3 (Netty + SunJSSE
 *   SSLEngine), blocking {@code send}/{@code recv};</li>
 *   <li>JSSE: a bare {@link SSLSocket} pair with the same rank identities ({@code TlsSockets}: TLS 1.3, the
 *   job's Ed25519 certificates, client certificate required), one thread per side;</li>
 *   <li>TCP: a plain {@link Socket} pair, one thread per side.</li>
 * </ul>
 *
 * <p>The socket baselines frame each message as a 4-byte length and the payload, written in one call when the message
 * is small (so one TLS record), and read into a reused buffer; TCP_NODELAY everywhere. Latency is ping-pong: rank 0
 * sends, rank 1 answers with a message of the same size; each sample is round trip / 2, and the table shows median and
 * p99 over {@link #PING_TIMED} samples after {@link #PING_WARM_UP} and then until the JIT compiler is quiet
 * ({@link #warmUntilQuiet}). Bandwidth is one direction: rank 0 streams N messages, rank 1 receives them all and
 * answers with a 1-byte ack; MB/s = 10^6 payload bytes per second from the first send to the ack, median of
 * {@link #BW_TIMED} repetitions after {@link #BW_WARM_UP}; the message rate is the same with {@link #RATE_COUNT} 8-byte
 * messages. The CPU rows give the whole JVM's CPU time (all threads, both sides) per MB over the timed repetitions:
 * unlike MB/s, it hardly moves when other processes share the cores. With {@code --runs N} the whole table is measured
 * N times in this JVM and the runtime issue's transport targets are judged on the median of the N ratios, each taken
 * within its own run.
 */
public final class TransportBench {
    private static final int TAG = 7;
    private static final int ACK_TAG = 8;
    private static final int[] PING_SIZES = {8, 4 * 1024};
    private static final int PING_WARM_UP = 5_000;
    private static final int PING_TIMED = 10_000;
    /** The longest warm-up of the latency rows after {@link #PING_WARM_UP}: the compiler may never be quiet. */
    private static final long LONGEST_WARM_UP_MS = 30_000;
    /** Round trips between two looks at the compiler during the warm-up. */
    private static final int QUIET_CHECK_TRIPS = 1000;
    private static final int[] BW_SIZES = {1 << 20, 16 << 20};
    /** Messages per bandwidth repetition: 128 MiB per repetition at both sizes. */
    private static final int[] BW_COUNTS = {128, 8};
    /** Small messages sent one way per repetition of the message-rate row (8 B each, then a 1-byte ack). */
    private static final int RATE_COUNT = 20_000;
    private static final int RATE_BYTES = 8;
    /**
     * Warm-up repetitions of each bandwidth and message-rate row: with 3 the 16 MiB figures still measured C2 compiling
     * the TLS path (a run of 20 repetitions rose from 190 to over 1000 MB/s in its first 8).
     */
    private static final int BW_WARM_UP = 8;
    private static final int BW_TIMED = 5;
    private static final Duration LIMIT = Duration.ofSeconds(120);

    private TransportBench() {
    }

    /** One side of a two-party connection; every stack is measured through this, by the same code. */
    interface Link {
        void send(byte[] payload);

        /**
         * Receives the next message, which must be {@code into.length} bytes, at least its first byte into {@code into}
         * (a stack may copy the rest there, or not).
         */
        void recv(byte[] into);
    }

    /** What rank 0 measured on one stack. */
    record Result(double[] medianUs, double[] p99Us, double[] mbPerSecond, double[] cpuMsPerMb,
                  double kMessagesPerSecond) {
    }

    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean)
                    java.lang.management.ManagementFactory.getOperatingSystemMXBean();

    /** One run's figures: the engines measured, SPERLI and bare JSSE on each, TCP, and the suites negotiated. */
    record Table(List<String> names, List<Result> sperli, List<Result> jsse, Result tcp, String suites) {
    }

    /** {@code scripts/bench transport [--runs N]}: N runs (default 1), each a whole table, then their medians. */
    public static void main(String[] args) throws Exception {
        int runs = 1;
        if (args.length == 2 && args[0].equals("--runs") && args[1].matches("[1-9][0-9]?")) {
            runs = Integer.parseInt(args[1]);
        } else if (args.length != 0) {
            System.err.println("usage: scripts/bench transport [--runs N]   (N from 1 to 99)");
            System.exit(2);
        }
        run(System.out, runs);
    }

    static void run(PrintStream out, int runs) throws Exception {
        long started = System.nanoTime();
        List<Table> tables = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            Table t = measureAll(out);
            tables.add(t);
            if (runs > 1) {
                out.printf(Locale.ROOT, "run %d of %d%n", i + 1, runs);
            }
            printTable(out, t.suites(), t.names(), t.sperli(), t.jsse(), t.tcp());
        }
        out.printf(Locale.ROOT, "(ratios: SPERLI of that engine against JSSE of the same engine, and against TCP;"
                + " slower means latency/CPU > 1, bandwidth and message rate < 1; CPU = JVM CPU time per MB)%n");
        if (runs > 1) {
            printTargets(out, tables);
        }
        out.printf(Locale.ROOT, "total %.1f s%n", (System.nanoTime() - started) / 1e9);
    }

    /**
     * The runtime issue's transport targets as the median over the runs of each run's own ratio: on a shared machine
     * one run's baseline moves a ratio by a third, so a verdict needs several runs, each compared within itself.
     */
    private static void printTargets(PrintStream out, List<Table> tables) {
        out.printf(Locale.ROOT, "targets, median of %d runs of the ratio within each run (the runs' ratios in"
                + " brackets):%n", tables.size());
        List<String> names = tables.get(0).names();
        for (int e = 0; e < names.size(); e++) {
            int engine = e;
            target(out, names.get(e), "8 B half round trip / TCP", "<=", 1.5, tables,
                    t -> t.sperli().get(engine).medianUs[0] / t.tcp().medianUs[0]);
            target(out, names.get(e), "16 MiB one way / TCP", ">=", 0.7, tables,
                    t -> t.sperli().get(engine).mbPerSecond[1] / t.tcp().mbPerSecond[1]);
            target(out, names.get(e), "CPU per MB at 16 MiB / bare JSSE", "<=", 1.0, tables,
                    t -> t.sperli().get(engine).cpuMsPerMb[1] / t.jsse().get(engine).cpuMsPerMb[1]);
        }
    }

    private static void target(PrintStream out, String engine, String label, String relation, double bound,
                               List<Table> tables, ToDoubleFunction<Table> ratio) {
        double[] r = tables.stream().mapToDouble(ratio).toArray();
        double[] sorted = r.clone();
        Arrays.sort(sorted);
        double median = sorted.length % 2 == 1 ? sorted[sorted.length / 2]
                : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
        boolean met = relation.equals("<=") ? median <= bound : median >= bound;
        StringBuilder each = new StringBuilder();
        for (double v : r) {
            each.append(each.length() == 0 ? "" : " ").append(String.format(Locale.ROOT, "%.2f", v));
        }
        out.printf(Locale.ROOT, "  %-5s %-34s %5.2f  target %s %.1f: %-7s [%s]%n", engine, label, median, relation,
                bound, met ? "met" : "not met", each);
    }

    /** Every stack once: TCP, then per engine bare JSSE and SPERLI. */
    private static Table measureAll(PrintStream out) throws Exception {
        InProcessJob job = new InProcessJob(2);
        SSLContext[] contexts = {job.socketContext(0), job.socketContext(1)};

        Result tcp = socketPair(false, contexts, null);
        List<String> names = new ArrayList<>();
        List<Result> sperli = new ArrayList<>();
        List<Result> jsse = new ArrayList<>();
        String suites = "";
        for (CryptoEngine.Name name : CryptoEngine.Name.values()) {
            CryptoEngine.Choice choice = CryptoEngine.switchTo(name);
            if (choice.engine() != name) {
                out.println("(" + choice.note() + ": no " + name.word() + " columns)");
                continue;
            }
            names.add(name.word());
            String[] jsseSuite = new String[1];
            jsse.add(socketPair(true, contexts, jsseSuite));
            List<SSLEngine> engines = Collections.synchronizedList(new ArrayList<>());
            IntFunction<RankConfig> configs = rank -> job.config(rank, recording(job.tlsEngineFactory(rank), engines));
            sperli.add(job.run(LIMIT, configs, runtime -> measure(new SperliLink(runtime), runtime.rank())).get(0));
            // An engine of a dial that was retried never handshook (its session says NONE): name one that did.
            String negotiated = engines.stream().map(SSLEngine::getSession).filter(x -> !"NONE".equals(x.getProtocol()))
                    .map(x -> x.getProtocol() + " " + x.getCipherSuite()).findFirst().orElse("?");
            suites += (suites.isEmpty() ? "" : "; ") + name.word() + ": SPERLI " + negotiated + ", JSSE "
                    + jsseSuite[0];
        }
        CryptoEngine.switchTo(CryptoEngine.Name.JDK);
        return new Table(names, sperli, jsse, tcp, suites);
    }

    /** The table: a column per engine for SPERLI and for bare JSSE, plain TCP, and the ratios. */
    private static void printTable(PrintStream out, String suites, List<String> names, List<Result> sperli,
                                   List<Result> jsse, Result tcp) {
        out.printf(Locale.ROOT, "TransportBench  java.version=%s  vm=%s  cores=%d%n",
                System.getProperty("java.version"),
                System.getProperty("java.vm.name"), Runtime.getRuntime().availableProcessors());
        out.printf(Locale.ROOT, "negotiated: %s; Ed25519 job certificates, loopback 127.0.0.1%n", suites);
        out.printf(Locale.ROOT, "latency: round trip/2, %d samples after %d warm-up (every size warmed first) and then"
                + " until the JIT was quiet, the"
                + " stacks one after the other: their p99 depends on where the scheduler put each pair of threads"
                + " (scripts/bench latency measures the tail); bandwidth: one direction, %d MiB per repetition,"
                + " median of %d after %d warm-up%n", PING_TIMED, PING_WARM_UP, (BW_SIZES[0] >> 20) * BW_COUNTS[0],
                BW_TIMED, BW_WARM_UP);
        StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "%-28s", "metric"));
        for (String n : names) {
            head.append(String.format(Locale.ROOT, " %12s", "SPERLI " + n));
        }
        for (String n : names) {
            head.append(String.format(Locale.ROOT, " %10s", "JSSE " + n));
        }
        head.append(String.format(Locale.ROOT, " %8s", "TCP"));
        for (String n : names) {
            head.append(String.format(Locale.ROOT, " %11s %10s", "/JSSE " + n, "/TCP"));
        }
        out.println(head);
        for (int i = 0; i < PING_SIZES.length; i++) {
            int k = i;
            String size = sizeLabel(PING_SIZES[i]);
            row(out, "latency " + size + " median (us)", sperli, jsse, tcp, r -> r.medianUs[k]);
            row(out, "latency " + size + " p99 (us)", sperli, jsse, tcp, r -> r.p99Us[k]);
        }
        for (int i = 0; i < BW_SIZES.length; i++) {
            int k = i;
            row(out, "bandwidth " + sizeLabel(BW_SIZES[i]) + " (MB/s)", sperli, jsse, tcp, r -> r.mbPerSecond[k]);
        }
        for (int i = 0; i < BW_SIZES.length; i++) {
            int k = i;
            row(out, "  CPU " + sizeLabel(BW_SIZES[i]) + " (ms/MB, JVM)", sperli, jsse, tcp, r -> r.cpuMsPerMb[k]);
        }
        row(out, "messages " + RATE_BYTES + " B one way (k/s)", sperli, jsse, tcp, Result::kMessagesPerSecond);
    }

    private static void row(PrintStream out, String label, List<Result> sperli, List<Result> jsse, Result tcp,
                            ToDoubleFunction<Result> metric) {
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-28s", label));
        for (Result r : sperli) {
            line.append(String.format(Locale.ROOT, " %12.1f", metric.applyAsDouble(r)));
        }
        for (Result r : jsse) {
            line.append(String.format(Locale.ROOT, " %10.1f", metric.applyAsDouble(r)));
        }
        double t = metric.applyAsDouble(tcp);
        line.append(String.format(Locale.ROOT, " %8.1f", t));
        for (int i = 0; i < sperli.size(); i++) {
            double v = metric.applyAsDouble(sperli.get(i));
            line.append(String.format(Locale.ROOT, " %11.2f %10.2f", v / metric.applyAsDouble(jsse.get(i)), v / t));
        }
        out.println(line);
    }

    private static String sizeLabel(int bytes) {
        return bytes >= 1 << 20 ? (bytes >> 20) + " MiB" : bytes >= 1024 ? (bytes >> 10) + " KiB" : bytes + " B";
    }

    // the measurement, the same for every stack

    /** Runs the whole schedule on one side; rank 0 returns the numbers, rank 1 returns null. */
    static Result measure(Link link, int rank) {
        boolean initiator = rank == 0;
        double[] median = new double[PING_SIZES.length];
        double[] p99 = new double[PING_SIZES.length];
        // Every size warms up before any is timed: the first size's figures would otherwise include the compilation
        // of the paths that the next sizes take; and then until the compiler is quiet.
        for (int size : PING_SIZES) {
            pingPong(link, initiator, filled(size), new byte[size], PING_WARM_UP, null);
        }
        warmUntilQuiet(link, initiator, PING_SIZES[0]);
        for (int i = 0; i < PING_SIZES.length; i++) {
            byte[] msg = filled(PING_SIZES[i]);
            byte[] in = new byte[PING_SIZES[i]];
            long[] samples = new long[PING_TIMED];
            pingPong(link, initiator, msg, in, PING_TIMED, samples);
            Arrays.sort(samples);
            median[i] = samples[samples.length / 2] / 2e3;
            p99[i] = samples[(int) Math.ceil(samples.length * 0.99) - 1] / 2e3;
        }
        double[] mbs = new double[BW_SIZES.length];
        double[] cpu = new double[BW_SIZES.length];
        byte[] ack = new byte[1];
        for (int i = 0; i < BW_SIZES.length; i++) {
            byte[] msg = filled(BW_SIZES[i]);
            byte[] in = initiator ? null : new byte[BW_SIZES[i]];
            double[] reps = new double[BW_TIMED];
            long cpuStart = 0;
            for (int r = 0; r < BW_WARM_UP + BW_TIMED; r++) {
                if (r == BW_WARM_UP) {
                    cpuStart = OS.getProcessCpuTime();
                }
                long t0 = System.nanoTime();
                if (initiator) {
                    for (int m = 0; m < BW_COUNTS[i]; m++) {
                        link.send(msg);
                    }
                    link.recv(ack);
                } else {
                    for (int m = 0; m < BW_COUNTS[i]; m++) {
                        link.recv(in);
                    }
                    link.send(ack);
                }
                long ns = System.nanoTime() - t0;
                if (r >= BW_WARM_UP) {
                    reps[r - BW_WARM_UP] = (double) BW_SIZES[i] * BW_COUNTS[i] / (ns / 1e9) / 1e6;
                }
            }
            cpu[i] = (OS.getProcessCpuTime() - cpuStart) / 1e6 / ((double) BW_SIZES[i] * BW_COUNTS[i] * BW_TIMED / 1e6);
            Arrays.sort(reps);
            mbs[i] = reps[reps.length / 2];
        }
        double rate = messageRate(link, initiator);
        return initiator ? new Result(median, p99, mbs, cpu, rate) : null;
    }

    /**
     * Thousands of {@link #RATE_BYTES}-byte messages per second one way: rank 0 sends {@link #RATE_COUNT} back to
     * back, rank 1 receives them all and acks; the median of the timed repetitions. What a stack charges per message
     * beyond its latency (a send that waits for its own write, for example) shows here.
     */
    private static double messageRate(Link link, boolean initiator) {
        byte[] msg = filled(RATE_BYTES);
        byte[] in = new byte[RATE_BYTES];
        byte[] ack = new byte[1];
        double[] reps = new double[BW_TIMED];
        for (int r = 0; r < BW_WARM_UP + BW_TIMED; r++) {
            long t0 = System.nanoTime();
            for (int m = 0; m < RATE_COUNT; m++) {
                if (initiator) {
                    link.send(msg);
                } else {
                    link.recv(in);
                }
            }
            if (initiator) {
                link.recv(ack);
            } else {
                link.send(ack);
            }
            if (r >= BW_WARM_UP) {
                reps[r - BW_WARM_UP] = RATE_COUNT / ((System.nanoTime() - t0) / 1e9) / 1e3;
            }
        }
        Arrays.sort(reps);
        return reps[reps.length / 2];
    }

    /**
     * Round trips of {@code size} bytes until the JIT compiler was quiet for a window ({@link JitQuiet}), at most
     * {@link #LONGEST_WARM_UP_MS}: on JDK 25, 5000 round trips left the first stack measured (SPERLI on the JDK's
     * engine) compiling, at twice its latency. Both sides make the same round trips: the initiator decides and says so
     * in the first byte of each ping (0: the last one).
     */
    static void warmUntilQuiet(Link link, boolean initiator, int size) {
        byte[] msg = filled(size);
        byte[] in = new byte[size];
        JitQuiet jit = initiator ? new JitQuiet() : null;
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(LONGEST_WARM_UP_MS);
        for (long trips = 1; ; trips++) {
            if (initiator) {
                boolean last = trips % QUIET_CHECK_TRIPS == 0 && (jit.quietNow() || System.nanoTime() - end > 0);
                msg[0] = (byte) (last ? 0 : 1);
                link.send(msg);
                link.recv(in);
                if (last) {
                    return;
                }
            } else {
                link.recv(in);
                link.send(msg);
                if (in[0] == 0) {
                    return;
                }
            }
        }
    }

    static void pingPong(Link link, boolean initiator, byte[] msg, byte[] in, int n, long[] samples) {
        for (int k = 0; k < n; k++) {
            if (initiator) {
                long t0 = System.nanoTime();
                link.send(msg);
                link.recv(in);
                long t = System.nanoTime() - t0;
                if (samples != null) {
                    samples[k] = t;
                }
            } else {
                link.recv(in);
                link.send(msg);
            }
        }
    }

    static byte[] filled(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 31 + 7);
        }
        return b;
    }

    // SPERLI

    static final class SperliLink implements Link {
        private final RankRuntime runtime;
        private final int peer;

        SperliLink(RankRuntime runtime) {
            this.runtime = runtime;
            this.peer = 1 - runtime.rank();
        }

        @Override
        public void send(byte[] payload) {
            runtime.send(peer, payload.length == 1 ? ACK_TAG : TAG, payload);
        }

        @Override
        public void recv(byte[] into) {
            byte[] m = runtime.recv(peer, into.length == 1 ? ACK_TAG : TAG);
            if (m.length != into.length) {
                throw new IllegalStateException("got " + m.length + " bytes, expected " + into.length);
            }
            // The first byte only: the warm-up's initiator says in it whether a round trip is the last one.
            into[0] = m[0];
        }
    }

    /** The rank's engine factory, keeping every engine it makes so that the negotiated suite can be shown. */
    private static TlsEngineFactory recording(TlsEngineFactory inner, List<SSLEngine> engines) {
        return new TlsEngineFactory() {
            @Override
            public SSLEngine client(String host, int port) {
                SSLEngine e = inner.client(host, port);
                engines.add(e);
                return e;
            }

            @Override
            public SSLEngine server() {
                SSLEngine e = inner.server();
                engines.add(e);
                return e;
            }
        };
    }

    // bare sockets

    static final class StreamLink implements Link {
        /** Messages up to this size go out in one write (one TLS record for the small ones). */
        private static final int ONE_WRITE = 64 * 1024;

        private final DataInputStream in;
        private final OutputStream out;
        private final byte[] scratch = new byte[4 + ONE_WRITE];

        StreamLink(Socket socket) throws IOException {
            socket.setTcpNoDelay(true);
            // Buffered, so that the 4-byte length costs no read call of its own (SSLSocket buffers a record anyway;
            // a bare socket would otherwise pay five reads for one small message and flatter the ratios against it).
            this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), ONE_WRITE));
            this.out = socket.getOutputStream();
        }

        @Override
        public void send(byte[] payload) {
            try {
                int n = payload.length;
                putInt(scratch, n);
                if (n <= ONE_WRITE) {
                    System.arraycopy(payload, 0, scratch, 4, n);
                    out.write(scratch, 0, 4 + n);
                } else {
                    out.write(scratch, 0, 4);
                    out.write(payload);
                }
                out.flush();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public void recv(byte[] into) {
            try {
                int n = in.readInt();
                if (n != into.length) {
                    throw new IllegalStateException("got " + n + " bytes, expected " + into.length);
                }
                in.readFully(into);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }

        private static void putInt(byte[] b, int v) {
            b[0] = (byte) (v >>> 24);
            b[1] = (byte) (v >>> 16);
            b[2] = (byte) (v >>> 8);
            b[3] = (byte) v;
        }
    }

    /**
     * Runs {@link #measure} over a connected socket pair (TLS from the two rank contexts, or plain TCP): rank 1 is
     * the server (requiring rank 0's client certificate), rank 0 dials it.
     */
    private static Result socketPair(boolean tls, SSLContext[] contexts, String[] suite) throws Exception {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        ExecutorService pool = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r);
            t.setDaemon(true);
            return t;
        });
        try (ServerSocket server = tls
                ? TlsSockets.listen(contexts[1], 0, 1, loopback)
                : new ServerSocket(0, 1, loopback)) {
            Future<Result> side1 = pool.submit(() -> {
                try (Socket s = server.accept()) {
                    if (tls) {
                        ((SSLSocket) s).startHandshake();
                    }
                    return measure(new StreamLink(s), 1);
                }
            });
            Future<Result> side0 = pool.submit(() -> {
                int port = server.getLocalPort();
                Socket plain = new Socket(loopback, port);
                try (Socket s = tls ? TlsSockets.layer(contexts[0], plain, "127.0.0.1", port) : plain) {
                    if (tls) {
                        SSLSocket ssl = (SSLSocket) s;
                        ssl.startHandshake();
                        suite[0] = ssl.getSession().getProtocol() + " " + ssl.getSession().getCipherSuite();
                    }
                    return measure(new StreamLink(s), 0);
                }
            });
            Result r = side0.get(LIMIT.toSeconds(), TimeUnit.SECONDS);
            side1.get(LIMIT.toSeconds(), TimeUnit.SECONDS);
            return r;
        } finally {
            pool.shutdownNow();
        }
    }
}
