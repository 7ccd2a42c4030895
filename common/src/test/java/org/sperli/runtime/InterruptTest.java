package org.sperli.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.transport.FlowControl;

/**
 * What an interrupt of a program thread does to its waits: a receive's wait with a bound ends with H1612; a receive
 * without one, a collective and a send that waits for its receiver go on and return with the interrupt set. The
 * waiting thread runs the rank's loop meanwhile, so these also check that the loop's select does not swallow the
 * interrupt.
 */
class InterruptTest {
    private static final Duration LIMIT = Duration.ofSeconds(60);

    @Test
    void aReceiveWithoutBoundKeepsWaitingThroughAnInterruptAndGivesTheInterruptBack() {
        List<TestJob.Outcome<String>> out = new TestJob(2).run(LIMIT, rt -> {
            if (rt.rank() == 1) {
                rt.recv(0, 1);
                sleepQuietly(200);
                rt.send(0, 2, "late".getBytes(StandardCharsets.US_ASCII));
                return "";
            }
            Thread interrupter = interruptAfter(Thread.currentThread(), 100);
            rt.send(1, 1, new byte[0]);
            // rank 1 answers 200 ms after the start, the interrupt comes at 100 ms: the receive outlasts it
            String got = new String(rt.recv(1, 2), StandardCharsets.US_ASCII);
            boolean kept = Thread.interrupted();
            joinQuietly(interrupter);
            return got + " interrupted=" + kept;
        });
        assertEquals("late interrupted=true", out.get(0).get());
    }

    @Test
    void aReceiveWithABoundEndsAtAnInterruptWithH1612() {
        List<TestJob.Outcome<String>> out = new TestJob(2).run(LIMIT, rt -> {
            if (rt.rank() == 1) {
                rt.recv(0, 1);
                return "";
            }
            Thread interrupter = interruptAfter(Thread.currentThread(), 100);
            long t0 = System.nanoTime();
            String result;
            try {
                // nothing is ever sent on tag 2: only the interrupt can end this wait before its 20 s
                rt.irecv(1, 2).await(Duration.ofSeconds(20));
                result = "no exception";
            } catch (SperliException e) {
                result = e.code() + (System.nanoTime() - t0 < 10_000_000_000L ? " before the bound" : " at the bound");
            }
            Thread.interrupted();
            joinQuietly(interrupter);
            rt.send(1, 1, new byte[0]);
            return result;
        });
        assertEquals(ErrorCode.H1612 + " before the bound", out.get(0).get());
    }

    /** A started thread that interrupts {@code target} after {@code ms}. */
    private static Thread interruptAfter(Thread target, long ms) {
        Thread interrupter = new Thread(() -> {
            sleepQuietly(ms);
            target.interrupt();
        });
        interrupter.start();
        return interrupter;
    }

    private static void sleepQuietly(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void joinQuietly(Thread t) {
        try {
            t.join(5000);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aSendThatWaitsForItsReceiverWaitsThroughAnInterruptAndGivesTheInterruptBack() {
        // More than the receiver queues before it stops reading (FlowControl.PAUSE_ABOVE_BYTES) and the sockets hold:
        // the sender stalls until rank 1 starts to receive, 1.5 s in; the interrupt comes at 0.5 s.
        int messages = (int) (FlowControl.PAUSE_ABOVE_BYTES >> 20) + 32;
        List<TestJob.Outcome<String>> out = new TestJob(2).run(LIMIT, rt -> {
            if (rt.rank() == 1) {
                sleepQuietly(1500);
                for (int i = 0; i < messages; i++) {
                    rt.recv(0, 3);
                }
                return "";
            }
            Thread interrupter = interruptAfter(Thread.currentThread(), 500);
            byte[] block = new byte[1 << 20];
            for (int i = 0; i < messages; i++) {
                rt.send(1, 3, block);
            }
            boolean kept = Thread.interrupted();
            joinQuietly(interrupter);
            return "sent " + messages + " interrupted=" + kept;
        });
        assertEquals("sent " + messages + " interrupted=true", out.get(0).get());
    }

    @Test
    void aBarrierWaitsThroughAnInterruptAndGivesTheInterruptBack() {
        List<TestJob.Outcome<Boolean>> out = new TestJob(2).run(LIMIT, rt -> {
            if (rt.rank() == 1) {
                sleepQuietly(200);
                rt.barrier();
                return false;
            }
            Thread interrupter = interruptAfter(Thread.currentThread(), 100);
            rt.barrier();
            boolean kept = Thread.interrupted();
            joinQuietly(interrupter);
            return kept;
        });
        assertEquals(Boolean.TRUE, out.get(0).get());
    }
}
