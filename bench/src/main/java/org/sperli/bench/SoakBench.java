package org.sperli.bench;

import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.sperli.Communicator;
import org.sperli.crypto.CryptoEngine;

/**
 * The message soak: {@code scripts/bench soak [MESSAGES] [RANKS]} (default 1,000,000 messages over 4 ranks, every rank
 * a thread of this JVM). Every rank has {@value #SENDERS} sending threads, each with a tag of its own, and one
 * receiving thread per (source, tag); so a rank's loop is driven by many threads at once, and a thread's sends often
 * find it driven by another (the case where a send is handed over). Each message carries its sender thread's
 * sequence number for that destination, and bytes derived from it; its length varies from 12 bytes to 64 KiB.
 *
 * <p>Every receiving thread checks that its messages come in the order sent (the protocol's promise per source and
 * tag), none missing, none twice, and every byte as sent. The table counts what arrived, out of order, corrupt and
 * lost (sent but never received within the bound); the soak passed when the last three are 0. Its exit status is 0
 * then, 1 otherwise.
 */
public final class SoakBench {
    static final int SENDERS = 2;
    private static final int DEFAULT_MESSAGES = 1_000_000;
    private static final int DEFAULT_RANKS = 4;
    private static final int HEADER = 12;
    private static final int LARGEST = 64 * 1024;
    private static final Duration LIMIT = Duration.ofMinutes(20);

    /** What one rank's receivers saw. */
    record Counts(long received, long outOfOrder, long corrupt, long expected) {
        Counts plus(Counts o) {
            return new Counts(received + o.received, outOfOrder + o.outOfOrder, corrupt + o.corrupt,
                    expected + o.expected);
        }
    }

    private SoakBench() {
    }

    public static void main(String[] args) {
        int messages = args.length > 0 ? Integer.parseInt(args[0]) : DEFAULT_MESSAGES;
        int ranks = args.length > 1 ? Integer.parseInt(args[1]) : DEFAULT_RANKS;
        if (ranks < 2 || messages < ranks * (ranks - 1) * SENDERS) {
            System.err.println("soak: RANKS must be at least 2 and MESSAGES at least RANKS x (RANKS - 1) x " + SENDERS);
            System.exit(2);
        }
        System.exit(run(System.out, messages, ranks) ? 0 : 1);
    }

    static boolean run(PrintStream out, int messages, int ranks) {
        out.printf(Locale.ROOT, "SoakBench  java.version=%s  cores=%d  %d messages over %d ranks (threads of one JVM),"
                + " %d sending threads per rank, one receiving thread per source and tag, 12 B to 64 KiB%n",
                System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(), messages, ranks,
                SENDERS);
        out.println(CryptoEngine.select(null, System.getenv()).note());
        // Each sending thread sends the same number to each other rank.
        int perStream = messages / (ranks * (ranks - 1) * SENDERS);
        long started = System.nanoTime();
        List<Counts> perRank;
        try {
            perRank = new InProcessJob(ranks).run(LIMIT, rt -> soak(rt, perStream));
        } catch (IllegalStateException e) {
            out.println("soak: FAILED: " + e.getMessage());
            return false;
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        Counts total = perRank.stream().reduce(new Counts(0, 0, 0, 0), Counts::plus);
        long lost = total.expected() - total.received();
        out.printf(Locale.ROOT, "%10s %10s %12s %8s %6s %9s %12s%n", "sent", "received", "out of order", "corrupt",
                "lost", "seconds", "messages/s");
        out.printf(Locale.ROOT, "%10d %10d %12d %8d %6d %9.1f %12.0f%n", total.expected(), total.received(),
                total.outOfOrder(), total.corrupt(), lost, seconds, total.received() / seconds);
        boolean passed = total.outOfOrder() == 0 && total.corrupt() == 0 && lost == 0;
        out.println(passed ? "soak: passed" : "soak: FAILED");
        return passed;
    }

    /** One rank: its senders and receivers, joined; what its receivers counted. */
    private static Counts soak(Communicator rt, int perStream) {
        List<Thread> threads = new ArrayList<>();
        AtomicLong received = new AtomicLong();
        AtomicLong outOfOrder = new AtomicLong();
        AtomicLong corrupt = new AtomicLong();
        for (int s = 0; s < SENDERS; s++) {
            int tag = s;
            threads.add(start("sender-" + s, () -> send(rt, tag, perStream)));
            for (int source = 0; source < rt.size(); source++) {
                if (source != rt.rank()) {
                    int from = source;
                    threads.add(start("receiver-" + source + "-" + s, () -> {
                        long next = 0;
                        for (int i = 0; i < perStream; i++) {
                            byte[] m = rt.recv(from, tag);
                            received.incrementAndGet();
                            ByteBuffer b = ByteBuffer.wrap(m);
                            long seq = m.length < HEADER || b.getInt(0) != tag ? -1 : b.getLong(4);
                            if (seq != next) {
                                // Counted once, then followed from where it is: one swap is not every later message.
                                outOfOrder.incrementAndGet();
                            } else if (!intact(m, seq)) {
                                corrupt.incrementAndGet();
                            }
                            next = seq + 1;
                        }
                    }));
                }
            }
        }
        // A receiver whose message never comes waits until the bound; what it missed is then counted as lost, and
        // closing the rank ends its wait.
        long deadline = System.nanoTime() + LIMIT.toNanos() / 2;
        for (Thread t : threads) {
            try {
                t.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (threads.stream().noneMatch(Thread::isAlive)) {
            rt.barrier();
        }
        long expected = (long) perStream * SENDERS * (rt.size() - 1);
        return new Counts(received.get(), outOfOrder.get(), corrupt.get(), expected);
    }

    /** A sending thread: {@code perStream} messages to every other rank on {@code tag}, in turn. */
    private static void send(Communicator rt, int tag, int perStream) {
        SplittableRandom lengths = new SplittableRandom(rt.rank() * 31L + tag);
        for (int seq = 0; seq < perStream; seq++) {
            for (int dest = 0; dest < rt.size(); dest++) {
                if (dest != rt.rank()) {
                    rt.send(dest, tag, message(tag, seq, length(lengths)));
                }
            }
        }
    }

    /** Mostly small messages, some of a few KiB, now and then one of up to 64 KiB. */
    private static int length(SplittableRandom random) {
        int pick = random.nextInt(100);
        return HEADER + (pick < 90 ? random.nextInt(64) : pick < 99 ? random.nextInt(4096) : random.nextInt(LARGEST));
    }

    private static byte[] message(int tag, int seq, int length) {
        byte[] m = new byte[length];
        ByteBuffer.wrap(m).putInt(0, tag).putLong(4, seq);
        for (int i = HEADER; i < length; i++) {
            m[i] = (byte) (seq * 31 + i);
        }
        return m;
    }

    private static boolean intact(byte[] m, long seq) {
        for (int i = HEADER; i < m.length; i++) {
            if (m[i] != (byte) (seq * 31 + i)) {
                return false;
            }
        }
        return true;
    }

    /** A daemon thread; a failure (the job's end, say) is said in one line, and the counts show what it missed. */
    private static Thread start(String name, Runnable body) {
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (RuntimeException e) {
                System.err.println("soak: " + name + ": " + e.getMessage());
            }
        }, name);
        t.setDaemon(true);
        t.start();
        return t;
    }
}
