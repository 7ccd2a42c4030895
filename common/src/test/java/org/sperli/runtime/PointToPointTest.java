package org.sperli.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.sperli.ErrorCode;
import org.sperli.Request;
import org.sperli.SperliException;

class PointToPointTest {
    private static final Duration LIMIT = Duration.ofSeconds(60);

    @Test
    void twoRanksExchangeMessagesInOrderPerTag() {
        List<TestJob.Outcome<String>> out = new TestJob(2).run(LIMIT, rt -> {
            int other = 1 - rt.rank();
            for (int i = 0; i < 50; i++) {
                rt.send(other, i % 3, ("m" + i).getBytes(StandardCharsets.US_ASCII));
            }
            StringBuilder got = new StringBuilder();
            // Receive tag 2 first: matching is by (source, tag), in arrival order within a tag.
            for (int tag : new int[] {2, 0, 1}) {
                for (int i = tag; i < 50; i += 3) {
                    got.append(new String(rt.recv(other, tag), StandardCharsets.US_ASCII)).append(',');
                }
            }
            return got.toString();
        });
        StringBuilder expected = new StringBuilder();
        for (int tag : new int[] {2, 0, 1}) {
            for (int i = tag; i < 50; i += 3) {
                expected.append("m").append(i).append(',');
            }
        }
        assertEquals(expected.toString(), out.get(0).get());
        assertEquals(expected.toString(), out.get(1).get());
    }

    @Test
    void aReceiveWhoseBoundPassesReturnsNullAndStaysOpenForItsMessage() {
        List<TestJob.Outcome<String>> out = new TestJob(2).run(LIMIT, rt -> {
            if (rt.rank() == 1) {
                rt.recv(0, 1);
                rt.send(0, 5, "late".getBytes(StandardCharsets.US_ASCII));
                return "";
            }
            Request<byte[]> request = rt.irecv(1, 5);
            byte[] early = request.await(Duration.ofMillis(100));
            boolean openAfterTheBound = !request.test();
            rt.send(1, 1, new byte[0]);
            String late = new String(request.await(), StandardCharsets.US_ASCII);
            return (early == null) + " " + openAfterTheBound + " " + late;
        });
        assertEquals("true true late", out.get(0).get());
    }

    /**
     * Waiting threads sleep: a wait polls only in its first 50 us (where ranks have cores of their own), and two
     * threads that wait at once, each ending the other's pass, must not keep each other polling. Polling for the
     * whole second costs a second of CPU; a sleeping wait costs a few milliseconds.
     */
    @Test
    void threadsThatWaitASecondForMessagesUseLittleCpuForIt() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isCurrentThreadCpuTimeSupported(), "this JVM measures no thread CPU time");
        List<TestJob.Outcome<Long>> out = new TestJob(2).run(LIMIT, rt -> {
            if (rt.rank() == 1) {
                rt.recv(0, 9);
                sleep(1000);
                rt.send(0, 1, new byte[8]);
                rt.send(0, 2, new byte[8]);
                return 0L;
            }
            // Threads of their own: the common pool may run one task at a time on a small machine.
            List<CompletableFuture<Long>> waiters = new ArrayList<>();
            CountDownLatch waiting = new CountDownLatch(2);
            for (int tag = 1; tag <= 2; tag++) {
                int t = tag;
                CompletableFuture<Long> cpu = new CompletableFuture<>();
                waiters.add(cpu);
                Thread waiter = new Thread(() -> {
                    try {
                        long before = threads.getCurrentThreadCpuTime();
                        waiting.countDown();
                        rt.recv(1, t);
                        cpu.complete(threads.getCurrentThreadCpuTime() - before);
                    } catch (RuntimeException e) {
                        cpu.completeExceptionally(e);
                    }
                }, "waiter-" + t);
                waiter.setDaemon(true);
                waiter.start();
            }
            awaitLatch(waiting);
            rt.send(1, 9, new byte[0]);
            return waiters.stream().mapToLong(f -> f.orTimeout(LIMIT.toSeconds(), TimeUnit.SECONDS).join()).sum();
        });
        long cpuNs = out.get(0).get();
        assertTrue(cpuNs < TimeUnit.MILLISECONDS.toNanos(300), "two waiting threads used " + cpuNs / 1_000_000
                + " ms of CPU in a wait of a second");
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void awaitLatch(CountDownLatch latch) {
        try {
            assertTrue(latch.await(LIMIT.toSeconds(), TimeUnit.SECONDS));
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void threeRanksPassATokenAroundARingWithEmptyMessages() {
        List<TestJob.Outcome<Integer>> out = new TestJob(3).run(LIMIT, rt -> {
            int next = (rt.rank() + 1) % rt.size();
            int prev = (rt.rank() + rt.size() - 1) % rt.size();
            int count = 0;
            if (rt.rank() == 0) {
                rt.send(next, 0, new byte[0]);
            }
            for (int lap = 0; lap < 10; lap++) {
                count += rt.recv(prev, 0).length + 1;
                if (rt.rank() != 0 || lap < 9) {
                    rt.send(next, 0, new byte[0]);
                }
            }
            return count;
        });
        for (TestJob.Outcome<Integer> o : out) {
            assertEquals(10, o.get());
        }
    }

    @Test
    void eightRanksAllToAllWithNonblockingCalls() {
        List<TestJob.Outcome<Long>> out = new TestJob(8).run(LIMIT, rt -> {
            long sum = 0;
            java.util.List<Request<byte[]>> recvs = new java.util.ArrayList<>();
            for (int p = 0; p < rt.size(); p++) {
                if (p != rt.rank()) {
                    recvs.add(rt.irecv(p, 7));
                }
            }
            for (int p = 0; p < rt.size(); p++) {
                if (p != rt.rank()) {
                    rt.isend(p, 7, ByteBuffer.wrap(new byte[] {(byte) rt.rank()})).await();
                }
            }
            for (Request<byte[]> r : recvs) {
                sum += r.await()[0];
            }
            return sum;
        });
        for (int r = 0; r < 8; r++) {
            assertEquals(28 - r, out.get(r).get());
        }
    }

    @Test
    void sixteenMiBMessageArrivesIntact() {
        byte[] big = new byte[16 * 1024 * 1024];
        new Random(42).nextBytes(big);
        List<TestJob.Outcome<byte[]>> out = new TestJob(2).run(LIMIT, rt -> {
            if (rt.rank() == 0) {
                rt.send(1, 1, big);
                return rt.recv(1, 2);
            }
            byte[] got = rt.recv(0, 1);
            rt.send(0, 2, got);
            return got;
        });
        assertArrayEquals(big, out.get(1).get());
        assertArrayEquals(big, out.get(0).get());
    }

    @Test
    void refusesMessageOver16MiBAtTheCallerWithH1618() {
        List<TestJob.Outcome<ErrorCode>> out = new TestJob(2).run(LIMIT, rt -> {
            try {
                rt.send(1 - rt.rank(), 0, ByteBuffer.allocate(16 * 1024 * 1024 + 1));
                return null;
            } catch (SperliException e) {
                return e.code();
            }
        });
        assertEquals(ErrorCode.H1618, out.get(0).get());
        assertEquals(ErrorCode.H1618, out.get(1).get());
    }

    @Test
    void refusesSendToSelfOutOfRangeAndReservedTagWithH1618() {
        List<TestJob.Outcome<String>> out = new TestJob(2).run(LIMIT, rt -> {
            StringBuilder codes = new StringBuilder();
            for (Runnable call : List.<Runnable>of(
                    () -> rt.send(rt.rank(), 0, new byte[1]),
                    () -> rt.send(2, 0, new byte[1]),
                    () -> rt.send(-1, 0, new byte[1]),
                    () -> rt.recv(1 - rt.rank(), -1))) {
                try {
                    call.run();
                } catch (SperliException e) {
                    codes.append(e.code()).append(' ');
                }
            }
            return codes.toString().trim();
        });
        assertEquals("H1618 H1618 H1618 H1618", out.get(0).get());
    }
}
