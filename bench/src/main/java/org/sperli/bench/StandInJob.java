package org.sperli.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.sperli.control.ControlFrame;

/**
 * The job that the {@link StandInAgent}s of a launcher benchmark pretend to run: it knows when the last rank has
 * started (the moment the bench measures), then lets every rank print {@code lines} lines of output and end with
 * status 0, on the thread of the bench that waits for it ({@link #finish}), not the launcher's.
 */
final class StandInJob {
    private final int size;
    private final int lines;
    private final Map<ControlFrame.RankRef, StandInAgent> running = new ConcurrentHashMap<>();
    private final CountDownLatch allStarted;
    private volatile long allStartedNanos;
    private final AtomicLong startBytes = new AtomicLong();

    StandInJob(int size, int lines) {
        this.size = size;
        this.lines = lines;
        this.allStarted = new CountDownLatch(size);
    }

    void started(StandInAgent agent, ControlFrame.RankRef ref) {
        running.put(ref, agent);
        if (running.size() == size && allStartedNanos == 0) {
            allStartedNanos = System.nanoTime();
        }
        allStarted.countDown();
    }

    /** A START of {@code bytes} (length field included) came in: the descriptions are most of it. */
    void startReceived(long bytes) {
        startBytes.addAndGet(bytes);
    }

    /** Bytes of every START so far. */
    long startBytes() {
        return startBytes.get();
    }

    /** Whether {@code ref} was still running (a signal then ends it). */
    boolean stop(ControlFrame.RankRef ref) {
        return running.remove(ref) != null;
    }

    /** Waits until every rank has started; the time it happened ({@link System#nanoTime}). */
    long awaitAllStarted() throws InterruptedException {
        allStarted.await();
        return allStartedNanos;
    }

    /** Every running rank prints its lines and ends. */
    void finish() throws IOException {
        List<Map.Entry<ControlFrame.RankRef, StandInAgent>> ranks = new ArrayList<>(running.entrySet());
        for (Map.Entry<ControlFrame.RankRef, StandInAgent> r : ranks) {
            if (running.remove(r.getKey()) != null) {
                r.getValue().end(r.getKey(), output(r.getKey().rank()));
            }
        }
    }

    private byte[] output(int rank) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < lines; i++) {
            s.append("rank ").append(rank).append(" of ").append(size).append(": line ").append(i).append('\n');
        }
        return s.toString().getBytes(StandardCharsets.UTF_8);
    }
}
