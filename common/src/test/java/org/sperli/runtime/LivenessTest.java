package org.sperli.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.identity.TlsSockets;
import org.sperli.protocol.frame.FrameHeader;
import org.sperli.protocol.frame.FrameType;
import org.sperli.protocol.payload.Abort;
import org.sperli.protocol.payload.Heartbeat;
import org.sperli.protocol.payload.Hello;

/** Heartbeats, ABORT and BYE as seen by a real rank 1 and a hand-driven rank 0. */
class LivenessTest {

    private static CompletableFuture<TestJob.Outcome<String>> rank1(TestJob job) {
        RankConfig config = job.config(1);
        return CompletableFuture.supplyAsync(() -> {
            try (RankRuntime rt = RankRuntime.connect(config)) {
                return new TestJob.Outcome<>(new String(rt.recv(0, 5), StandardCharsets.UTF_8), null);
            } catch (SperliException e) {
                return new TestJob.Outcome<String>(null, e);
            }
        });
    }

    private static RoguePeer rogue(TestJob job) throws Exception {
        RoguePeer rogue = RoguePeer.tls(TlsSockets.context(job.job, job.size, job.ca.certificate(),
                job.credentials.get(0)), job.hosts.get(1).port());
        rogue.sendHello(job, 0, 1, job.token(0));
        assertNotNull(rogue.readUntil(FrameType.HELLO));
        return rogue;
    }

    private static void send(RoguePeer rogue, TestJob job, FrameType type, byte[] payload) throws Exception {
        rogue.send(FrameHeader.of(type, payload.length, job.job, 0, 1, job.incarnation, 0, 0), payload);
    }

    @Test
    void idleConnectionCarriesHeartbeatsWithACounterFromOne() throws Exception {
        TestJob job = new TestJob(2);
        var rank = rank1(job);
        try (RoguePeer rogue = rogue(job)) {
            long start = System.nanoTime();
            long expected = 1;
            while (expected <= 2) {
                byte[] h = new byte[FrameHeader.LENGTH];
                rogue.in.readFully(h);
                FrameHeader header = FrameHeader.read(ByteBuffer.wrap(h), 0);
                byte[] payload = rogue.in.readNBytes((int) header.length());
                assertEquals(FrameType.HEARTBEAT, header.frameType());
                assertEquals(expected++, Heartbeat.read(ByteBuffer.wrap(payload)).counter());
                // keep the rank from taking us as lost while we watch
                send(rogue, job, FrameType.HEARTBEAT, new Heartbeat(expected).toBytes());
            }
            long ms = (System.nanoTime() - start) / 1_000_000;
            assertTrue(ms >= 1500 && ms < 4000, "two heartbeats after " + ms + " ms");
            byte[] hi = "hi".getBytes(StandardCharsets.UTF_8);
            rogue.send(FrameHeader.of(FrameType.DATA, hi.length, job.job, 0, 1, job.incarnation, 5, 0), hi);
            assertEquals("hi", rank.get(30, TimeUnit.SECONDS).get());
        }
    }

    /** Protocol 7.1: a peer's HELLO with feature bits beyond bit 0 is accepted; v1 ignores them. */
    @Test
    void aHelloWithUnknownFeatureBitsIsAcceptedAndTheJobRuns() throws Exception {
        TestJob job = new TestJob(2);
        var rank = rank1(job);
        try (RoguePeer rogue = RoguePeer.tls(TlsSockets.context(job.job, job.size, job.ca.certificate(),
                job.credentials.get(0)), job.hosts.get(1).port())) {
            byte[] hello = new Hello(1, -1L, job.token(0)).toBytes();
            rogue.send(FrameHeader.of(FrameType.HELLO, hello.length, job.job, 0, 1, job.incarnation, 0, 0), hello);
            assertNotNull(rogue.readUntil(FrameType.HELLO));
            byte[] hi = "hi".getBytes(StandardCharsets.UTF_8);
            rogue.send(FrameHeader.of(FrameType.DATA, hi.length, job.job, 0, 1, job.incarnation, 5, 0), hi);
            assertEquals("hi", rank.get(30, TimeUnit.SECONDS).get());
        }
    }

    @Test
    void abortFromAPeerFailsBlockedCallsWithH1612() throws Exception {
        TestJob job = new TestJob(2);
        var rank = rank1(job);
        try (RoguePeer rogue = rogue(job)) {
            send(rogue, job, FrameType.ABORT, Abort.of(Abort.Reason.PROGRAM_FAILED, null, "boom").toBytes());
            TestJob.Outcome<String> o = rank.get(30, TimeUnit.SECONDS);
            assertEquals(ErrorCode.H1612, o.error().code());
            assertTrue(o.error().reason().contains("boom"), o.error().reason());
            // The receiver of ABORT forwards nothing: the next thing on the connection is its close.
            assertEquals(null, rogue.readUntilAbortHeader());
        }
    }

    @Test
    void byeEndsAWaitOnThatPeerWithH1613() throws Exception {
        TestJob job = new TestJob(2);
        var rank = rank1(job);
        try (RoguePeer rogue = rogue(job)) {
            send(rogue, job, FrameType.BYE, new byte[0]);
            TestJob.Outcome<String> o = rank.get(30, TimeUnit.SECONDS);
            assertEquals(ErrorCode.H1613, o.error().code());
            assertTrue(o.error().reason().contains("left"), o.error().reason());
        }
    }

    @Test
    void messagesSentBeforeByeAreStillDelivered() throws Exception {
        TestJob job = new TestJob(2);
        var rank = rank1(job);
        try (RoguePeer rogue = rogue(job)) {
            byte[] last = "last words".getBytes(StandardCharsets.UTF_8);
            rogue.send(FrameHeader.of(FrameType.DATA, last.length, job.job, 0, 1, job.incarnation, 5, 0), last);
            send(rogue, job, FrameType.BYE, new byte[0]);
            assertEquals("last words", rank.get(30, TimeUnit.SECONDS).get());
        }
    }

    @Test
    void aFrameStillArrivingCountsAsLifeEvenWhenItTakesLongerThanTheSilenceLimit() throws Exception {
        TestJob job = new TestJob(2, 1, 2000);
        var rank = rank1(job);
        try (RoguePeer rogue = rogue(job)) {
            byte[] payload = new byte[64 * 1024];
            java.util.Arrays.fill(payload, (byte) 'x');
            FrameHeader header = FrameHeader.of(FrameType.DATA, payload.length, job.job, 0, 1, job.incarnation, 5,
                    0);
            byte[] frame = new byte[FrameHeader.LENGTH + payload.length];
            header.write(ByteBuffer.wrap(frame), 0);
            System.arraycopy(payload, 0, frame, FrameHeader.LENGTH, payload.length);
            // 4 s for one frame, twice the silence limit, a piece every 250 ms and no heartbeat in between
            int pieces = 16;
            int piece = frame.length / pieces;
            for (int i = 0; i < pieces; i++) {
                int end = i == pieces - 1 ? frame.length : (i + 1) * piece;
                rogue.out.write(frame, i * piece, end - i * piece);
                rogue.out.flush();
                Thread.sleep(250);
            }
            TestJob.Outcome<String> o = rank.get(30, TimeUnit.SECONDS);
            assertEquals(null, o.error(), () -> "the slow frame was taken as silence: " + o.error());
            assertEquals(payload.length, o.get().length());
        }
    }

    @Test
    void silenceIsNotJudgedBeforeTheMeshIsCompleteTheStallBoundIs() throws Exception {
        TestJob job = new TestJob(3, 1, 2000);
        // rank 1 of 3: rank 2 never comes, rank 0 is us and says nothing after its HELLO
        RankConfig config = job.config(1).withSetupBounds(java.time.Duration.ofMillis(5000),
                java.time.Duration.ofSeconds(5));
        CompletableFuture<SperliException> rank = CompletableFuture.supplyAsync(() -> {
            try (RankRuntime rt = RankRuntime.connect(config)) {
                return null;
            } catch (SperliException e) {
                return e;
            }
        });
        RoguePeer rogue = RoguePeer.tls(TlsSockets.context(job.job, job.size, job.ca.certificate(),
                job.credentials.get(0)), job.hosts.get(1).port());
        try (rogue) {
            rogue.sendHello(job, 0, 1, job.token(0));
            long start = System.nanoTime();
            SperliException e = rank.get(30, TimeUnit.SECONDS);
            long ms = (System.nanoTime() - start) / 1_000_000;
            assertNotNull(e, "the setup cannot complete without rank 2");
            assertEquals(ErrorCode.H1613, e.code());
            assertTrue(e.reason().contains("setup has not moved") || e.reason().contains("could not reach rank 2"),
                    e.reason());
            assertTrue(ms >= 4000, "failed after " + ms + " ms, before the stall bound");
        }
    }

    /**
     * Protocol 1 and 7.5 (13.11, question 5): a dropped frame is not delivered, but its bytes count for liveness like
     * every byte that arrives; the idle handler sits before the decoder. A peer that sends only frames of an older
     * incarnation for twice the silence limit, and no heartbeat, is not taken as lost.
     */
    @Test
    void theBytesOfDroppedFramesCountForLiveness() throws Exception {
        TestJob job = new TestJob(2, 2, 2000);
        var rank = rank1(job);
        try (RoguePeer rogue = rogue(job)) {
            byte[] stale = "stale".getBytes(StandardCharsets.UTF_8);
            for (int i = 0; i < 16; i++) {
                rogue.send(FrameHeader.of(FrameType.DATA, stale.length, job.job, 0, 1, job.incarnation - 1, 5, 0),
                        stale);
                Thread.sleep(250);
            }
            byte[] fresh = "fresh".getBytes(StandardCharsets.UTF_8);
            rogue.send(FrameHeader.of(FrameType.DATA, fresh.length, job.job, 0, 1, job.incarnation, 5, 0), fresh);
            TestJob.Outcome<String> o = rank.get(30, TimeUnit.SECONDS);
            assertEquals(null, o.error(), () -> "the dropped frames were taken as silence: " + o.error());
            assertEquals("fresh", o.get());
        }
    }

    /**
     * Protocol 7.5 (13.11, question 4): nothing on the wire carries the silence limit, so each rank judges its peers
     * by its own description's limit and sends heartbeats after a fifth of its own. Descriptions that differ are not
     * detected: rank 0 with 2000 ms takes rank 1, whose 60000 ms limit spaces its heartbeats 12 s apart, as lost
     * after 2 s of quiet, and rank 1 reports that verdict (with rank 0's heartbeats every second it would judge
     * nobody itself).
     */
    @Test
    void eachRankJudgesSilenceByItsOwnDescriptionsLimit() {
        TestJob job = new TestJob(2, 1, 60_000).silenceMsAt(0, 2000);
        List<TestJob.Outcome<String>> out = job.run(java.time.Duration.ofSeconds(60),
                rt -> new String(rt.recv(1 - rt.rank(), 5), StandardCharsets.UTF_8));
        SperliException rank0 = out.get(0).error();
        assertNotNull(rank0, "rank 0 did not judge rank 1 silent");
        assertEquals(ErrorCode.H1613, rank0.code());
        assertTrue(rank0.reason().contains("rank 1 silent for 2000 ms"), rank0.reason());
        assertNotNull(out.get(1).error(), "rank 1 did not hear rank 0's verdict");
        assertEquals(ErrorCode.H1613, out.get(1).error().code(), out.get(1).error().getMessage());
    }
}
