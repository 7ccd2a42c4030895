package org.sperli.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.sperli.runtime.CollectiveFixture.LIMIT;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sperli.ElementType;
import org.sperli.ReduceOp;
import org.sperli.Request;

/**
 * Collective frames and DATA frames of one connection arrive in the order sent, and neither kind of call takes the
 * other's frames: DATA before a collective frame stays queued for recv, a collective frame before DATA stays queued
 * for the collective.
 */
class CollectiveOrderTest {
    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static String ascii(byte[] b) {
        return new String(b, StandardCharsets.US_ASCII);
    }

    @Test
    void dataThatArrivesBeforeACollectiveFrameStaysQueuedForRecv() {
        List<TestJob.Outcome<String>> out = new TestJob(2).run(LIMIT, rt -> {
            if (rt.rank() == 1) {
                rt.send(0, 5, ascii("before"));
                rt.gather(0, ascii("block"));
                rt.send(0, 5, ascii("after"));
                rt.barrier();
                return "sent";
            }
            // Frames of one connection arrive in order: when the gather frame is taken, "before" is queued.
            List<byte[]> blocks = rt.gather(0, ascii("own.."));
            String gathered = ascii(blocks.get(0)) + "+" + ascii(blocks.get(1));
            String data = ascii(rt.recv(1, 5)) + "," + ascii(rt.recv(1, 5));
            rt.barrier();
            return gathered + " " + data;
        });
        assertEquals("own..+block before,after", out.get(0).get());
        assertEquals("sent", out.get(1).get());
    }

    @Test
    void dataBeforeAndAfterACollectiveReachRecvInOrderWhileTheCollectiveRunsBetween() {
        List<TestJob.Outcome<String>> out = new TestJob(3).run(LIMIT, rt -> {
            int r = rt.rank();
            if (r != 0) {
                rt.send(0, 7, ascii("a" + r));
                rt.reduce(0, new int[] {r}, ReduceOp.SUM);
                rt.send(0, 7, ascii("b" + r));
                rt.barrier();
                return "sent";
            }
            int[] sum = rt.reduce(0, new int[] {0}, ReduceOp.SUM);
            StringBuilder got = new StringBuilder().append(sum[0]);
            for (int p = 1; p < 3; p++) {
                got.append(' ').append(ascii(rt.recv(p, 7))).append(ascii(rt.recv(p, 7)));
            }
            rt.barrier();
            return got.toString();
        });
        assertEquals("3 a1b1 a2b2", out.get(0).get());
    }

    @Test
    void collectiveFramesThatArriveBeforeDataStayQueuedForTheCollective() {
        List<TestJob.Outcome<String>> out = new TestJob(2).run(LIMIT, rt -> {
            if (rt.rank() == 1) {
                rt.reduce(0, new long[] {40}, ReduceOp.SUM);
                rt.gather(0, ascii("g"));
                rt.send(0, 9, ascii("data"));
                byte[] back = rt.bcast(0, null);
                return ascii(back);
            }
            // The reduce and gather frames arrive first; recv passes over them to the DATA frame.
            String data = ascii(rt.recv(1, 9));
            long[] sum = rt.reduce(0, new long[] {2}, ReduceOp.SUM);
            List<byte[]> gathered = rt.gather(0, ascii("G"));
            rt.bcast(0, ascii("done"));
            return data + " " + sum[0] + " " + ascii(gathered.get(0)) + ascii(gathered.get(1));
        });
        assertEquals("data 42 Gg", out.get(0).get());
        assertEquals("done", out.get(1).get());
    }

    @Test
    void aPostedIrecvIsCompletedByDataWhileCollectivesRun() {
        List<TestJob.Outcome<String>> out = new TestJob(3).run(LIMIT, rt -> {
            int r = rt.rank();
            int next = (r + 1) % 3;
            int prev = (r + 2) % 3;
            Request<byte[]> pending = rt.irecv(prev, 1);
            byte[] x = rt.allreduce(new byte[] {(byte) (1 << r)}, ElementType.BYTES, ReduceOp.BOR);
            rt.send(next, 1, new byte[] {(byte) r});
            rt.barrier();
            byte[] y = rt.allreduce(new byte[] {(byte) r}, ElementType.BYTES, ReduceOp.BXOR);
            return x[0] + " " + pending.await()[0] + " " + y[0];
        });
        assertEquals("7 2 3", out.get(0).get());
        assertEquals("7 0 3", out.get(1).get());
        assertEquals("7 1 3", out.get(2).get());
    }

    @Test
    void largeDataAndCollectivesInterleaveWithoutMixingBytes() {
        byte[] big = CollectiveFixture.bytes(5, 0, 3_000_000);
        List<TestJob.Outcome<Integer>> out = new TestJob(2).run(LIMIT, rt -> {
            for (int i = 0; i < 3; i++) {
                if (rt.rank() == 0) {
                    rt.send(1, i, big);
                    assertArrayEquals(big, rt.bcast(0, big));
                } else {
                    assertArrayEquals(big, rt.bcast(0, null));
                    assertArrayEquals(big, rt.recv(0, i));
                }
            }
            return 3;
        });
        out.forEach(o -> assertEquals(3, o.get()));
    }
}
