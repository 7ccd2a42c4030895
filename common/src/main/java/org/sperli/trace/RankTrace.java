package org.sperli.trace;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The trace of one rank in one incarnation: a ring of the last {@code capacity} events (a power of two), held in
 * arrays made once, so that recording an event allocates nothing: two clock reads (the caller's start and the end
 * here), one atomic increment and eight array stores. An event is recorded when it ends, so a span's inner spans come
 * before it in the ring; {@link #part} puts them in time order. Safe for the rank's threads to record at once; a slot
 * reused while another thread writes it (more than {@code capacity} events in flight at once) may mix two events.
 *
 * <p>Beside the ring: the wall times at which this rank sent its HELLO to each peer and checked each peer's HELLO,
 * from which {@link ChromeTrace} estimates the clock offsets between hosts.
 */
public final class RankTrace {
    /** Events kept per rank unless said otherwise: about 3.5 MiB of arrays, some 10 MB of JSON. */
    public static final int DEFAULT_EVENTS = 65_536;
    /** The fewest events a ring keeps. */
    public static final int MIN_EVENTS = 16;
    /** The most events a ring keeps (about 56 MiB of arrays per rank). */
    public static final int MAX_EVENTS = 1 << 20;
    private static final TraceKind[] KINDS = TraceKind.values();

    private final int rank;
    private final int size;
    private final long incarnation;
    private final String host;
    private final TraceClock clock;
    private final int mask;
    private final long[] start;
    private final long[] duration;
    private final long[] tag;
    private final long[] bytes;
    private final long[] seq;
    private final long[] thread;
    private final int[] peer;
    private final byte[] kind;
    private final AtomicLong next = new AtomicLong();
    private final long[] helloSent;
    private final long[] helloReceived;
    private final Map<Long, String> threads = new LinkedHashMap<>();
    private volatile long lastThread = -1;

    /**
     * A ring of at least {@code events} events (rounded up to a power of two, {@value #MIN_EVENTS} to
     * {@value #MAX_EVENTS}) for rank {@code rank} of {@code size} at {@code host}, its times read on {@code clock}.
     */
    public RankTrace(int rank, int size, long incarnation, String host, int events, TraceClock clock) {
        if (events < 1 || events > MAX_EVENTS) {
            throw new IllegalArgumentException("events " + events + ", allowed 1.." + MAX_EVENTS);
        }
        int capacity = Integer.highestOneBit(Math.max(MIN_EVENTS, events) - 1) << 1;
        this.clock = clock;
        this.rank = rank;
        this.size = size;
        this.incarnation = incarnation;
        this.host = host;
        this.mask = capacity - 1;
        this.start = new long[capacity];
        this.duration = new long[capacity];
        this.tag = new long[capacity];
        this.bytes = new long[capacity];
        this.seq = new long[capacity];
        this.thread = new long[capacity];
        this.peer = new int[capacity];
        this.kind = new byte[capacity];
        this.helloSent = new long[size];
        this.helloReceived = new long[size];
    }

    /** The start of a span, to be given to {@link #span} at its end. */
    public long now() {
        return clock.nanoTime();
    }

    /**
     * A span of {@code kind} from {@code startNanos} ({@link #now}) to now. Fields a kind does not use are -1;
     * {@code failed}: the call threw.
     */
    @SuppressWarnings("deprecation")
    public void span(TraceKind kind, long startNanos, int peer, long tag, long bytes, long seq, boolean failed) {
        long end = clock.nanoTime();
        Thread current = Thread.currentThread();
        long id = current.getId();
        if (id != lastThread) {
            noteThread(id, current.getName());
        }
        int slot = (int) (next.getAndIncrement() & mask);
        this.start[slot] = startNanos;
        this.duration[slot] = end - startNanos;
        this.tag[slot] = tag;
        this.bytes[slot] = bytes;
        this.seq[slot] = seq;
        this.thread[slot] = id;
        this.peer[slot] = peer;
        this.kind[slot] = (byte) (kind.ordinal() | (failed ? 0x80 : 0));
    }

    /** An instant of {@code kind} now. */
    public void instant(TraceKind kind, int peer, long seq) {
        span(kind, clock.nanoTime(), peer, -1, -1, seq, false);
    }

    /** This rank sent its HELLO to {@code peer} now. */
    public void helloSent(int peer) {
        helloSent[peer] = clock.wallNanos(clock.nanoTime());
    }

    /** This rank got {@code peer}'s HELLO now (before checking it); also an instant event. */
    public void helloReceived(int peer) {
        helloReceived[peer] = clock.wallNanos(clock.nanoTime());
        instant(TraceKind.HELLO, peer, -1);
    }

    public int rank() {
        return rank;
    }

    /** How many events the ring keeps. */
    public int capacity() {
        return mask + 1;
    }

    /** Events recorded so far, those the ring no longer holds included. */
    public long recorded() {
        return next.get();
    }

    private synchronized void noteThread(long id, String name) {
        threads.putIfAbsent(id, name);
        lastThread = id;
    }

    /** What the ring holds now, in time order, with wall times; to be taken once the rank's threads are done. */
    public TracePart part() {
        long recorded = next.get();
        int held = (int) Math.min(recorded, capacity());
        List<TracePart.Event> events = new ArrayList<>(held);
        for (long i = recorded - held; i < recorded; i++) {
            int slot = (int) (i & mask);
            int k = kind[slot];
            events.add(new TracePart.Event(KINDS[k & 0x7f], thread[slot], clock.wallNanos(start[slot]),
                    duration[slot], peer[slot], tag[slot], bytes[slot], seq[slot], (k & 0x80) != 0));
        }
        events.sort(TracePart.Event.TIME_ORDER);
        Map<Long, String> names;
        synchronized (this) {
            names = new LinkedHashMap<>(threads);
        }
        return new TracePart(rank, size, incarnation, host, capacity(), recorded, names,
                Arrays.copyOf(helloSent, size), Arrays.copyOf(helloReceived, size), events);
    }
}
