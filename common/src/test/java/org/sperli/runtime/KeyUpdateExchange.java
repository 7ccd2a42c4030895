package org.sperli.runtime;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * Two ranks that exchange small and large messages, run in a JVM of its own by {@link KeyUpdateTest} with TLS keys
 * that last a few KiB: the engine then sends a KeyUpdate among the records of the frames. Prints
 * {@code exchanged A B}, the intact messages each rank received, and exits 0 when all were.
 */
public final class KeyUpdateExchange {
    static final int MESSAGES = 400;
    private static final int LARGE_BYTES = 1 << 20;

    private KeyUpdateExchange() {
    }

    public static void main(String[] args) {
        List<TestJob.Outcome<Integer>> out = new TestJob(2).run(Duration.ofSeconds(60), rt -> {
            int other = 1 - rt.rank();
            int ok = 0;
            for (int i = 0; i < MESSAGES; i++) {
                byte[] m = message(i);
                if (rt.rank() == 0) {
                    rt.send(other, 1, m);
                    ok += Arrays.equals(m, rt.recv(other, 1)) ? 1 : 0;
                } else {
                    ok += Arrays.equals(m, rt.recv(other, 1)) ? 1 : 0;
                    rt.send(other, 1, m);
                }
                if (i % 100 == 0) {
                    // a large one between, through the pipeline, and small ones right behind it
                    byte[] large = new byte[LARGE_BYTES];
                    Arrays.fill(large, (byte) i);
                    rt.isend(other, 2, ByteBuffer.wrap(large));
                    rt.send(other, 3, m);
                    ok += Arrays.equals(large, rt.recv(other, 2)) && Arrays.equals(m, rt.recv(other, 3)) ? 0 : -1000;
                }
            }
            return ok;
        });
        int a = out.get(0).get();
        int b = out.get(1).get();
        System.out.println("exchanged " + a + " " + b);
        System.exit(a == MESSAGES && b == MESSAGES ? 0 : 1);
    }

    private static byte[] message(int i) {
        byte[] m = new byte[1 + (i * 37) % 3000];
        Arrays.fill(m, (byte) i);
        return m;
    }
}
