package org.sperli.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.identity.TlsSockets;
import org.sperli.protocol.Limits;
import org.sperli.protocol.frame.FrameHeader;
import org.sperli.protocol.frame.FrameType;
import org.sperli.protocol.payload.Abort;

/**
 * Protocol 7.5, the close grace: a close without BYE is judged only after {@link Limits#CLOSE_GRACE_MS}, so that a
 * bystander reports the job's verdict (the decider's ABORT), not the close of a rank that received it first. Rank 2
 * is real; ranks 0 and 1 are driven by hand.
 */
class CloseGraceTest {

    private record Started(CompletableFuture<TestJob.Outcome<String>> rank2, RoguePeer zero, RoguePeer one) {
    }

    private static Started start(TestJob job) throws Exception {
        RankConfig config = job.config(2);
        CompletableFuture<TestJob.Outcome<String>> rank2 = CompletableFuture.supplyAsync(() -> {
            try (RankRuntime rt = RankRuntime.connect(config)) {
                return new TestJob.Outcome<>(new String(rt.recv(0, 5), StandardCharsets.UTF_8), null);
            } catch (SperliException e) {
                return new TestJob.Outcome<String>(null, e);
            }
        });
        return new Started(rank2, rogue(job, 0), rogue(job, 1));
    }

    private static RoguePeer rogue(TestJob job, int rank) throws Exception {
        RoguePeer rogue = RoguePeer.tls(TlsSockets.context(job.job, job.size, job.ca.certificate(),
                job.credentials.get(rank)), job.hosts.get(2).port());
        rogue.sendHello(job, rank, 2, job.token(rank));
        assertNotNull(rogue.readUntil(FrameType.HELLO));
        return rogue;
    }

    private static void abort(RoguePeer from, TestJob job, int fromRank, Abort abort) throws Exception {
        byte[] payload = abort.toBytes();
        from.send(FrameHeader.of(FrameType.ABORT, payload.length, job.job, fromRank, 2, job.incarnation, 0, 0),
                payload);
    }

    @Test
    void aCloseThatOvertakesTheDecidersAbortIsReportedAsThatAbort() throws Exception {
        TestJob job = new TestJob(3);
        Started s = start(job);
        try (RoguePeer zero = s.zero()) {
            // Rank 1 got rank 0's ABORT first and closed; rank 0's ABORT to rank 2 follows 100 ms later.
            s.one().close();
            Thread.sleep(100);
            abort(zero, job, 0, Abort.of(Abort.Reason.REFUSED, ErrorCode.H1614, "rank 0 refused rank 1"));
            TestJob.Outcome<String> o = s.rank2().get(30, TimeUnit.SECONDS);
            assertEquals(ErrorCode.H1612, o.error().code(), o.error().reason());
            assertTrue(o.error().reason().contains("rank 0 refused rank 1"), o.error().reason());
        }
    }

    @Test
    void aCloseWithoutAnAbortEndsTheJobWithH1613AfterTheGrace() throws Exception {
        TestJob job = new TestJob(3);
        Started s = start(job);
        try (RoguePeer zero = s.zero()) {
            long closed = System.nanoTime();
            s.one().close();
            TestJob.Outcome<String> o = s.rank2().get(30, TimeUnit.SECONDS);
            long ms = (System.nanoTime() - closed) / 1_000_000;
            assertEquals(ErrorCode.H1613, o.error().code(), o.error().reason());
            assertTrue(o.error().reason().contains("rank 1 closed its connection without BYE"), o.error().reason());
            assertTrue(ms >= Limits.CLOSE_GRACE_MS - 50, "judged after " + ms + " ms");
            // The verdict went out as ABORT reason 1 to the remaining peer.
            FrameHeader h = zero.readUntilAbortHeader();
            assertNotNull(h);
        }
    }

    /** Protocol 7.6: a lost peer is the job's verdict, so a rank that hears of it by ABORT reports H1613 too. */
    @Test
    void anotherSurvivorsPeerLostAbortDuringTheGraceIsH1613() throws Exception {
        TestJob job = new TestJob(3);
        Started s = start(job);
        try (RoguePeer zero = s.zero()) {
            // Rank 1 vanished; rank 0 judged it first and says so, while rank 2's own grace runs.
            s.one().close();
            Thread.sleep(50);
            abort(zero, job, 0, Abort.of(Abort.Reason.PEER_LOST, ErrorCode.H1613,
                    "rank 1 closed its connection without BYE"));
            TestJob.Outcome<String> o = s.rank2().get(30, TimeUnit.SECONDS);
            assertEquals(ErrorCode.H1613, o.error().code(), o.error().reason());
            assertTrue(o.error().reason().contains("rank 0 aborted the job (reason 1, code H1613)"),
                    o.error().reason());
        }
    }
}
