package org.sperli.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.protocol.JobId;
import org.sperli.protocol.Limits;
import org.sperli.protocol.frame.FrameType;
import org.sperli.protocol.frame.ReceiverContext;
import org.sperli.protocol.payload.Abort;
import org.sperli.protocol.payload.Heartbeat;
import org.sperli.protocol.payload.Hello;
import org.sperli.testing.ManualClock;
import org.sperli.transport.EmbeddedConnection;
import org.sperli.transport.Progress;

/**
 * Protocol 7.5 as the runtime judges it, on a clock only the test moves: rank 2 of 3 with its connections to ranks 0
 * and 1 on their real pipelines (TLS left out). The close grace: a close without BYE is judged H1613 when the grace
 * has passed, not a millisecond before, and an ABORT that arrives within it is the verdict instead. The silence limit:
 * a silent peer ends the job with H1613 and ABORT reason 1, but only once every HELLO was checked; a silence that
 * began during the setup counts from the next full limit.
 */
class LivenessTimersTest {
    private static final long SILENCE_MS = 5000;
    private static final long GRACE_MS = Limits.CLOSE_GRACE_MS;
    private static final int OWN_RANK = 2;
    private static final JobId JOB = JobId.of(new byte[JobId.LENGTH]);

    private final ManualClock clock = new ManualClock();
    /** When (the rank's wall time, ms) each peer's join token was checked. */
    private final List<Long> tokensCheckedAt = new CopyOnWriteArrayList<>();
    private final RankConfig config = new RankConfig(JOB, 3, OWN_RANK, 1, SILENCE_MS, hosts(),
            new byte[16], (token, peer, now) -> tokensCheckedAt.add(now), null, null, clock, Duration.ofSeconds(30),
            Duration.ofSeconds(120), line -> { }, null);
    private final JobFate fate = new JobFate(clock);
    private final Links links = new Links(3, OWN_RANK, clock);
    private final Mailbox mailbox = new Mailbox(3, OWN_RANK, fate, Progress.NONE, clock);
    private final FrameLink frames = new FrameLink(config, links, mailbox, fate, Progress.NONE);
    private final InboundFrames inbound = new InboundFrames(config, links, mailbox, frames, fate);
    private final EmbeddedConnection zero = connect(0);
    private final EmbeddedConnection one = connect(1);

    private static List<PeerAddress> hosts() {
        List<PeerAddress> hosts = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
            hosts.add(new PeerAddress("127.0.0.1", 23000 + r));
        }
        return hosts;
    }

    /** The connection of {@code peer}, established as the mesh does it, before its HELLO. */
    private EmbeddedConnection connect(int peer) {
        EmbeddedConnection c = EmbeddedConnection.established(clock, new ReceiverContext(JOB, 3, OWN_RANK, peer, 1),
                inbound, SILENCE_MS);
        links.claim(peer, true);
        mailbox.attach(peer, c.peerChannel().flow());
        links.put(peer, c.peerChannel());
        return c;
    }

    private static void hello(EmbeddedConnection c) {
        c.receive(FrameType.HELLO, Hello.v1(new byte[16]).toBytes());
    }

    private void helloFromBoth() {
        hello(zero);
        hello(one);
        assertTrue(links.allHellosChecked());
    }

    /** Lets {@code ms} pass and runs what fell due on {@code c}'s loop. */
    private void after(long ms, EmbeddedConnection c) {
        clock.advanceMillis(ms);
        c.runDue();
    }

    /** The ABORTs this rank wrote on {@code c} since the last look. */
    private static List<Abort> abortsSentOn(EmbeddedConnection c) {
        return c.sent().stream().filter(s -> s.header().frameType() == FrameType.ABORT)
                .map(s -> Abort.read(ByteBuffer.wrap(s.payload()))).toList();
    }

    private void assertEndedWith(ErrorCode code, String reason) {
        SperliException failure = fate.failure();
        assertTrue(failure != null, "the job still runs");
        assertEquals(code, failure.code(), failure.getMessage());
        assertTrue(failure.reason().contains(reason), failure.reason());
    }

    @Test
    void eachJoinTokenIsCheckedAtTheRanksOwnWallTime() {
        hello(zero);
        clock.advanceMillis(1234);
        hello(one);
        long start = ManualClock.DEFAULT_START.toEpochMilli();
        assertEquals(List.of(start, start + 1234), tokensCheckedAt);
    }

    @Test
    void aCloseWithoutByeIsNotJudgedAtTheGraceMinusOneMs() {
        helloFromBoth();
        one.peerCloses();
        after(GRACE_MS - 1, one);
        assertNull(fate.failure());
        assertEquals(List.of(), abortsSentOn(zero));
    }

    @Test
    void aCloseWithoutByeIsJudgedH1613AtTheGrace() {
        helloFromBoth();
        one.peerCloses();
        after(GRACE_MS - 1, one);
        after(1, one);
        assertEndedWith(ErrorCode.H1613, "rank 1 closed its connection without BYE");
        List<Abort> aborts = abortsSentOn(zero);
        assertEquals(1, aborts.size(), "ABORT to the remaining peer");
        assertEquals(Abort.Reason.PEER_LOST.code(), aborts.get(0).reason());
        assertEquals(ErrorCode.H1613.number(), aborts.get(0).code());
    }

    @Test
    void aCloseWithoutByeIsJudgedH1613AtTheGracePlusOneMs() {
        helloFromBoth();
        one.peerCloses();
        after(GRACE_MS + 1, one);
        assertEndedWith(ErrorCode.H1613, "rank 1 closed its connection without BYE");
    }

    @Test
    void anAbortThatArrivesAtTheGraceMinusOneMsIsTheVerdictInsteadOfTheClose() {
        helloFromBoth();
        one.peerCloses();
        after(GRACE_MS - 1, one);
        zero.receive(FrameType.ABORT, Abort.of(Abort.Reason.REFUSED, ErrorCode.H1614, "rank 0 refused rank 1")
                .toBytes());
        after(1, one);
        assertEndedWith(ErrorCode.H1612, "rank 0 refused rank 1");
        assertEquals(List.of(), abortsSentOn(zero), "the receiver of an ABORT forwards nothing");
    }

    @Test
    void aCloseAfterByeIsNoLoss() {
        helloFromBoth();
        one.receive(FrameType.BYE, new byte[0]);
        after(GRACE_MS + 1, one);
        assertNull(fate.failure());
    }

    @Test
    void aPeerSilentForTheLimitMinusOneMsLeavesTheJobRunning() {
        helloFromBoth();
        after(SILENCE_MS - 1, zero);
        assertNull(fate.failure());
    }

    @Test
    void aPeerSilentForTheLimitEndsTheJobWithH1613AndAbortReason1() {
        helloFromBoth();
        after(SILENCE_MS - 1, zero);
        // Rank 1 is alive: a heartbeat from it. Rank 0 has said nothing since its HELLO.
        one.receive(FrameType.HEARTBEAT, new Heartbeat(1).toBytes());
        after(1, zero);
        assertEndedWith(ErrorCode.H1613, "rank 0 silent for 5000 ms");
        List<Abort> aborts = abortsSentOn(one);
        assertEquals(1, aborts.size(), aborts.toString());
        assertEquals(Abort.Reason.PEER_LOST.code(), aborts.get(0).reason());
    }

    @Test
    void aSilenceThatBeganDuringTheSetupCountsFromTheNextFullLimit() {
        hello(zero);
        // Rank 1's HELLO is late: rank 0's silence at the limit is the setup's to judge, not the liveness rule's.
        after(SILENCE_MS, zero);
        assertNull(fate.failure());
        hello(one);
        after(SILENCE_MS - 1, zero);
        assertNull(fate.failure(), "the next period began at the first limit and ends at twice the limit");
        one.receive(FrameType.HEARTBEAT, new Heartbeat(1).toBytes());
        after(1, zero);
        assertEndedWith(ErrorCode.H1613, "rank 0 silent for 5000 ms");
    }
}
