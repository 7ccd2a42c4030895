package org.sperli.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sperli.runtime.CheckpointFixture.assertEveryRankFails;
import static org.sperli.runtime.CheckpointFixture.assertJobEnded;
import static org.sperli.runtime.CheckpointFixture.layout;
import static org.sperli.runtime.CheckpointFixture.run;
import static org.sperli.runtime.CheckpointFixture.state;
import static org.sperli.runtime.CheckpointFixture.temporaryFiles;
import static org.sperli.runtime.CheckpointFixture.writing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sperli.ErrorCode;
import org.sperli.Request;
import org.sperli.SperliException;

class CheckpointRefusalTest {
    @TempDir
    Path root;

    @Test
    void anOpenIrecvOnOneRankFailsTheCheckpointWithH1624OnEveryRank() {
        TestJob job = TestJob.withCheckpoints(3, root);
        List<TestJob.Outcome<Long>> out = run(job, rt -> {
            // No barrier first: the ABORT may reach a rank still connecting, which reports H1624 all the same.
            if (rt.rank() == 1) {
                Request<byte[]> open = rt.irecv(2, 7);
                assertFalse(open.test());
            }
            return rt.checkpoint(writing(state(rt.rank(), 1)));
        });

        assertEveryRankFails(out, 1, ErrorCode.H1624);
        assertFalse(Files.exists(layout(job, 0).commit(1)), "a failed checkpoint leaves no COMMIT");
    }

    /**
     * Issue 14 point 7b: a rank whose program never enters the checkpoint keeps its heartbeats going; rank 0's wait for
     * its CKPT_ACK ends at the checkpoint wait limit with H1613 (ABORT reason 5), and the job ends everywhere.
     */
    @Test
    void aRankThatNeverEntersTheCheckpointEndsTheJobAtTheWaitLimit() {
        TestJob job = TestJob.withCheckpoints(3, root).checkpointWaitLimit(Duration.ofSeconds(1));
        long started = System.nanoTime();
        List<TestJob.Outcome<Long>> out = run(job, rt -> {
            if (rt.rank() == 2) {
                rt.recv(0, 99); // in another call for ever: only the wait limit ends the checkpoint of the others
                return -1L;
            }
            return rt.checkpoint(writing(state(rt.rank(), 1)));
        });
        long ms = (System.nanoTime() - started) / 1_000_000;

        assertJobEnded(out, 0, ErrorCode.H1613, ErrorCode.H1612);
        assertTrue(out.get(0).error().reason().contains("rank 2 sent no CKPT_ACK of epoch 1 within 1 s"),
                out.get(0).error().reason());
        assertTrue(ms < 20_000, "ended after " + ms + " ms");
        assertFalse(Files.exists(layout(job, 0).commit(1)), "a failed checkpoint leaves no COMMIT");
    }

    @Test
    void anIsendWhoseCompletionWasNotSeenIsStillOpenForTheCheckpoint() {
        TestJob job = TestJob.withCheckpoints(2, root);
        List<TestJob.Outcome<Long>> out = run(job, rt -> {
            rt.barrier();
            if (rt.rank() == 0) {
                Request<Void> sent = rt.isend(1, 3, java.nio.ByteBuffer.wrap(new byte[] {1}));
                // TLS takes the byte at once, but nobody awaited or tested the request: it is still open.
                sleepMs(200);
                assertFalse(sent == null);
            } else {
                rt.recv(0, 3);
            }
            return rt.checkpoint(writing(state(rt.rank(), 1)));
        });

        assertEveryRankFails(out, 0, ErrorCode.H1624);
    }

    @Test
    void anAwaitedIsendDoesNotHoldTheCheckpointBack() {
        TestJob job = TestJob.withCheckpoints(2, root);
        List<TestJob.Outcome<Long>> out = run(job, rt -> {
            if (rt.rank() == 0) {
                rt.isend(1, 3, java.nio.ByteBuffer.wrap(new byte[] {1})).await();
            } else {
                rt.recv(0, 3);
            }
            return rt.checkpoint(writing(state(rt.rank(), 1)));
        });

        assertEquals(1L, out.get(0).get());
        assertEquals(1L, out.get(1).get());
    }

    private static void sleepMs(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void aCompletedIrecvDoesNotHoldTheCheckpointBack() {
        TestJob job = TestJob.withCheckpoints(2, root);
        List<TestJob.Outcome<Long>> out = run(job, rt -> {
            Request<byte[]> r = rt.irecv(1 - rt.rank(), 3);
            rt.send(1 - rt.rank(), 3, new byte[] {42});
            r.await();
            return rt.checkpoint(writing(state(rt.rank(), 1)));
        });

        assertEquals(1L, out.get(0).get());
        assertEquals(1L, out.get(1).get());
    }

    @Test
    void withoutACheckpointDirectoryTheCallIsRefusedWithH1618AndTheJobGoesOn() {
        List<TestJob.Outcome<String>> out = new TestJob(2).run(CheckpointFixture.LIMIT, rt -> {
            SperliException refused = assertThrows(SperliException.class, () -> rt.checkpoint(out1 -> { }));
            rt.barrier();
            return refused.code() + " " + refused.reason();
        });

        for (TestJob.Outcome<String> o : out) {
            assertEquals("H1618 no checkpoint directory: checkpoints are off for this job", o.get());
        }
    }

    @Test
    void aNullStateIsRefusedWithH1618BeforeAnythingIsSent() {
        TestJob job = TestJob.withCheckpoints(2, root);
        List<TestJob.Outcome<Long>> out = run(job, rt -> {
            SperliException refused = assertThrows(SperliException.class, () -> rt.checkpoint(null));
            assertEquals(ErrorCode.H1618, refused.code());
            return rt.checkpoint(writing(state(rt.rank(), 1)));
        });

        assertEquals(1L, out.get(0).get());
        assertEquals(1L, out.get(1).get());
    }

    @Test
    void aStateThatThrowsFailsTheCheckpointWithH1619AndLeavesNoTemporaryFile() {
        TestJob job = TestJob.withCheckpoints(2, root);
        List<TestJob.Outcome<Long>> out = run(job, rt -> rt.checkpoint(o -> {
            o.write(new byte[100]);
            if (rt.rank() == 1) {
                throw new IOException("test: the state cannot be written");
            }
        }));

        CheckpointFixture.assertJobEnded(out, 1, ErrorCode.H1619, ErrorCode.H1612);
        assertEquals(List.of(), temporaryFiles(job.checkpointDirs.get(1)));
        assertFalse(Files.exists(layout(job, 0).commit(1)));
    }
}
