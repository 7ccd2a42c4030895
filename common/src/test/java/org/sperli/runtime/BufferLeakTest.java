package org.sperli.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.sperli.ElementType;
import org.sperli.ReduceOp;
import org.sperli.Request;

/**
 * Every buffer the transport takes is released: the reason a rank may run with Netty's leak check off
 * ({@link org.sperli.transport.LeakDetection}). Here the check runs at its paranoid level, which tracks every buffer;
 * Netty reports a buffer that the garbage collector found unreleased through its logger (java.util.logging, as this
 * module has no other logging library), which these tests listen to.
 */
class BufferLeakTest {
    private static final Duration LIMIT = Duration.ofSeconds(60);
    private static final Logger NETTY_LEAKS = Logger.getLogger(ResourceLeakDetector.class.getName());
    /** Collections and report sweeps after the traffic: a leak is reported on the first sweep after its collection. */
    private static final int SWEEPS = 4;
    /**
     * Buffers that Netty tracks (unpooled heap buffers it never does): the dropped one, and those whose tracking makes
     * Netty look for leaks.
     */
    private static final UnpooledByteBufAllocator TRACKED = new UnpooledByteBufAllocator(true, false);

    private final Reports reports = new Reports();
    private ResourceLeakDetector.Level levelBefore;
    private boolean parentHandlersBefore;

    @BeforeEach
    void trackEveryBuffer() throws InterruptedException {
        levelBefore = ResourceLeakDetector.getLevel();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
        NETTY_LEAKS.addHandler(reports);
        // The reports are this test's to judge; the control's expected one need not reach the console.
        parentHandlersBefore = NETTY_LEAKS.getUseParentHandlers();
        NETTY_LEAKS.setUseParentHandlers(false);
        // What earlier tests of this JVM left unreleased is reported now, and is not this test's to judge.
        sweep(SWEEPS);
        reports.clear();
    }

    @AfterEach
    void restore() {
        NETTY_LEAKS.removeHandler(reports);
        NETTY_LEAKS.setUseParentHandlers(parentHandlersBefore);
        ResourceLeakDetector.setLevel(levelBefore);
    }

    @Test
    void pointToPointCollectivesAndTheCloseReleaseEveryBuffer() throws InterruptedException {
        List<TestJob.Outcome<Integer>> out = new TestJob(3).run(LIMIT, BufferLeakTest::everyKindOfTraffic);
        for (TestJob.Outcome<Integer> o : out) {
            assertEquals(3, o.get());
        }
        sweep(SWEEPS);
        assertEquals(List.of(), reports.messages(), "Netty reported buffers that were never released");
    }

    /** The check above can fail: a buffer dropped without release is reported through the same logger. */
    @Test
    void aBufferDroppedWithoutReleaseIsReported() throws InterruptedException {
        dropUnreleased();
        for (int i = 0; i < 50 && reports.messages().isEmpty(); i++) {
            sweep(1);
        }
        assertFalse(reports.messages().isEmpty(), "no leak report for a buffer dropped unreleased");
        assertTrue(reports.messages().get(0).contains("LEAK"), reports.messages().get(0));
    }

    private static int everyKindOfTraffic(RankRuntime rt) {
        int next = (rt.rank() + 1) % rt.size();
        int prev = (rt.rank() + rt.size() - 1) % rt.size();
        for (int bytes : new int[] {0, 8, 4096, 70_000, 3 << 20}) {
            Request<byte[]> in = rt.irecv(prev, bytes);
            rt.isend(next, bytes, ByteBuffer.wrap(new byte[bytes])).await();
            assertEquals(bytes, in.await().length);
            rt.send(next, 1, new byte[bytes]);
            assertEquals(bytes, rt.recv(prev, 1).length);
        }
        rt.barrier();
        byte[] big = new byte[1 << 20];
        rt.bcast(0, rt.rank() == 0 ? big : null);
        rt.allreduce(new byte[64], ElementType.F64, ReduceOp.SUM);
        rt.allreduce(big, ElementType.F64, ReduceOp.SUM);
        rt.reduce(1, big, ElementType.I32, ReduceOp.MAX);
        List<byte[]> gathered = rt.gather(2, new byte[100_000]);
        rt.scatter(0, rt.rank() == 0 ? Collections.nCopies(rt.size(), new byte[100_000]) : null);
        rt.barrier();
        return gathered == null ? rt.size() : gathered.size();
    }

    private static void dropUnreleased() {
        ByteBuf dropped = TRACKED.directBuffer(64);
        dropped.writeLong(1);
    }

    /**
     * Lets the collector find what was dropped, then makes a tracked buffer: Netty looks at its reference queue, and
     * reports, only when it tracks a new one.
     */
    private static void sweep(int times) throws InterruptedException {
        for (int i = 0; i < times; i++) {
            System.gc();
            Thread.sleep(20);
            TRACKED.directBuffer(16).release();
        }
    }

    /** The leak reports Netty logs while a test runs. */
    private static final class Reports extends Handler {
        private final List<String> messages = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void publish(LogRecord record) {
            messages.add(String.valueOf(record.getMessage()));
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }

        List<String> messages() {
            return List.copyOf(messages);
        }

        void clear() {
            messages.clear();
        }
    }
}
