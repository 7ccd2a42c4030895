package org.sperli.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.sperli.transport.FlowControl;

/** A slow receiver slows its sender through TCP; the memory its unexpected messages hold stays bounded. */
class BackpressureTest {
    private static final int MESSAGES = 120;
    private static final int MESSAGE_BYTES = 1024 * 1024;

    @Test
    void unexpectedMessagesStayBoundedAndTheSenderWaitsForTheReceiver() {
        senderWaitsAndQueueStaysBounded(MESSAGES, MESSAGE_BYTES);
    }

    /**
     * Small sends return before TLS took their copy (eager sends), but only while the connection's queue is below its
     * high water mark: against a receiver that does not read, the sender still stalls.
     */
    @Test
    void eagerSmallSendsStallTooOnceTheConnectionsQueueIsFull() {
        senderWaitsAndQueueStaysBounded(40_000, PointToPoint.EAGER_BYTES / 2);
    }

    private static void senderWaitsAndQueueStaysBounded(int messages, int messageBytes) {
        CountDownLatch receiverMayStart = new CountDownLatch(1);
        AtomicInteger sentBeforeReceiving = new AtomicInteger();
        AtomicLong mostQueued = new AtomicLong();
        List<TestJob.Outcome<Integer>> out = new TestJob(2).run(Duration.ofSeconds(90), rt -> {
            if (rt.rank() == 0) {
                byte[] block = new byte[messageBytes];
                for (int i = 0; i < messages; i++) {
                    block[0] = (byte) i;
                    rt.send(1, 3, block);
                    if (receiverMayStart.getCount() > 0) {
                        sentBeforeReceiving.incrementAndGet();
                    }
                }
                return messages;
            }
            // Rank 1 does not receive while rank 0 sends, until the sender has stalled for a while.
            long lastSent = -1;
            long stalledSince = System.nanoTime();
            while (System.nanoTime() - stalledSince < 1_500_000_000L) {
                sleep(100);
                mostQueued.accumulateAndGet(queued(rt, 0), Math::max);
                if (sentBeforeReceiving.get() != lastSent || lastSent == 0) {
                    // the stall clock starts only once the sender has begun
                    lastSent = sentBeforeReceiving.get();
                    stalledSince = System.nanoTime();
                }
            }
            receiverMayStart.countDown();
            int ok = 0;
            for (int i = 0; i < messages; i++) {
                byte[] m = rt.recv(0, 3);
                ok += m.length == messageBytes && m[0] == (byte) i ? 1 : 0;
            }
            return ok;
        });
        assertEquals(messages, out.get(0).get());
        assertEquals(messages, out.get(1).get(), "every message arrived intact and in order");
        assertTrue(sentBeforeReceiving.get() < messages, "the sender stalled before the receiver started: sent "
                + sentBeforeReceiving.get() + " of " + messages);
        long bound = FlowControl.PAUSE_ABOVE_BYTES + 16L * 1024 * 1024;
        assertTrue(mostQueued.get() <= bound, "queued " + mostQueued.get() + " bytes, bound " + bound);
    }

    /**
     * Rank 0 sends more than the pause bound of tag-3 messages and then one tag-4 message; rank 1, once reading from
     * rank 0 has paused, asks for the tag-4 message first. The pause gives way to the waiting receive instead of
     * deadlocking it, and every tag-3 message still arrives in order.
     */
    @Test
    void aReceiveForALaterMessageIsNotDeadlockedBehindAPausedQueue() {
        List<TestJob.Outcome<Integer>> out = new TestJob(2).run(Duration.ofSeconds(90), rt -> {
            int behind = (int) (FlowControl.PAUSE_ABOVE_BYTES / MESSAGE_BYTES) + 8;
            if (rt.rank() == 0) {
                sendBlocks(rt, behind);
                rt.send(1, 4, new byte[] {42});
                return behind;
            }
            awaitPaused(rt, 0);
            int ok = rt.recv(0, 4)[0] == 42 ? 1 : 0;
            return ok + receiveBlocks(rt, behind);
        });
        int behind = out.get(0).get();
        assertEquals(behind + 1, out.get(1).get(), "the tag-4 message, then every tag-3 message in order");
    }

    /** As above with a barrier after the messages: the collective waits for a frame behind a paused queue. */
    @Test
    void aCollectiveIsNotDeadlockedBehindAPausedQueueOfDataMessages() {
        List<TestJob.Outcome<Integer>> out = new TestJob(2).run(Duration.ofSeconds(90), rt -> {
            int behind = (int) (FlowControl.PAUSE_ABOVE_BYTES / MESSAGE_BYTES) + 8;
            if (rt.rank() == 0) {
                sendBlocks(rt, behind);
                rt.barrier();
                return behind;
            }
            awaitPaused(rt, 0);
            rt.barrier();
            return receiveBlocks(rt, behind);
        });
        assertEquals(out.get(0).get(), out.get(1).get(), "every message arrived intact and in order");
    }

    private static void sendBlocks(RankRuntime rt, int n) {
        byte[] block = new byte[MESSAGE_BYTES];
        for (int i = 0; i < n; i++) {
            block[0] = (byte) i;
            rt.send(1, 3, block);
        }
    }

    private static int receiveBlocks(RankRuntime rt, int n) {
        int ok = 0;
        for (int i = 0; i < n; i++) {
            byte[] m = rt.recv(0, 3);
            ok += m.length == MESSAGE_BYTES && m[0] == (byte) i ? 1 : 0;
        }
        return ok;
    }

    /** Waits (at most 60 s) until this rank has stopped reading from {@code peer} because its queue is full. */
    private static void awaitPaused(RankRuntime rt, int peer) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!paused(rt, peer)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("reading from rank " + peer + " never paused; queued " + queued(rt, peer));
            }
            sleep(20);
        }
    }

    private static boolean paused(RankRuntime rt, int peer) {
        return TestJob.parts(rt).mailbox().queuedBytes(peer) > FlowControl.PAUSE_ABOVE_BYTES
                && TestJob.parts(rt).links().channel(peer).flow().paused();
    }

    private static long queued(RankRuntime rt, int peer) {
        return TestJob.parts(rt).mailbox().queuedBytes(peer);
    }

    private static void sleep(long ms) {
        try {
            TimeUnit.MILLISECONDS.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
