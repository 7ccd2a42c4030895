package org.sperli.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sperli.Request;

/**
 * A small frame goes out beside the pipeline ({@code transport.DirectRecords}) only where that keeps the order of the
 * connection's frames: never while a frame written through the pipeline is still going out.
 */
class DirectSendTest {
    private static final Duration LIMIT = Duration.ofSeconds(60);
    private static final int LARGE_BYTES = 16 * 1024 * 1024;
    private static final int SMALL_MESSAGES = 300;

    @Test
    void smallMessagesSentWhileALargeOneIsStillGoingOutFollowItWhole() {
        List<TestJob.Outcome<Integer>> out = new TestJob(2).run(LIMIT, rt -> {
            if (rt.rank() == 0) {
                Request<Void> large = rt.isend(1, 1, ByteBuffer.wrap(pattern(LARGE_BYTES)));
                for (int i = 0; i < SMALL_MESSAGES; i++) {
                    rt.send(1, 1, new byte[] {(byte) i, 1, 2, 3});
                }
                large.await();
                return SMALL_MESSAGES;
            }
            int ok = Arrays.equals(pattern(LARGE_BYTES), rt.recv(0, 1)) ? 1 : 0;
            for (int i = 0; i < SMALL_MESSAGES; i++) {
                byte[] m = rt.recv(0, 1);
                ok += m.length == 4 && m[0] == (byte) i ? 1 : 0;
            }
            return ok;
        });
        assertEquals(SMALL_MESSAGES, out.get(0).get());
        assertEquals(SMALL_MESSAGES + 1, out.get(1).get(), "the large message first and whole, then each small one");
    }

    @Test
    void smallMessagesBothWaysInTurnArriveWholeAndInOrder() {
        // The ping-pong of a small message: every frame beside the pipeline, each rank's reads in between.
        List<TestJob.Outcome<Integer>> out = new TestJob(2).run(LIMIT, rt -> {
            int other = 1 - rt.rank();
            int ok = 0;
            for (int i = 0; i < 2000; i++) {
                byte[] m = new byte[1 + i % 300];
                Arrays.fill(m, (byte) i);
                if (rt.rank() == 0) {
                    rt.send(other, 2, m);
                    ok += Arrays.equals(m, rt.recv(other, 2)) ? 1 : 0;
                } else {
                    ok += Arrays.equals(m, rt.recv(other, 2)) ? 1 : 0;
                    rt.send(other, 2, m);
                }
            }
            return ok;
        });
        assertEquals(2000, out.get(0).get());
        assertEquals(2000, out.get(1).get());
    }

    private static byte[] pattern(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 31 + 7);
        }
        return b;
    }
}
