package org.sperli.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.netty.channel.embedded.EmbeddedChannel;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.sperli.protocol.JobId;
import org.sperli.protocol.Limits;
import org.sperli.protocol.frame.FrameHeader;
import org.sperli.protocol.frame.FrameType;
import org.sperli.testing.ManualClock;

/**
 * Protocol 7.5, a connection sends HEARTBEAT when it has sent nothing for the heartbeat interval (1000 ms, or a fifth
 * of a longer silence limit up to 15 s), as the rank's one heartbeat timer does it: on a clock that only the test
 * moves, the timer's quarter-second ticks and a connection's writes decide when one goes out.
 */
class HeartbeatsTest {
    private static final JobId JOB = JobId.of(new byte[JobId.LENGTH]);
    /** Steps of the loop's frozen time, short against a tick, so that each tick runs close to when it is due. */
    private static final long STEP_MS = 50;

    /** The rank's clock, on a quarter second of the wall clock: the ticks fall 250, 500, ... ms from now. */
    private final ManualClock clock = new ManualClock(Instant.parse("2026-12-01T09:15:02Z"));
    private final EmbeddedChannel ch = EmbeddedChannel.builder().ticker(ClockTicker.of(clock)).build();

    private EmbeddedChannel connection() {
        return connection(Limits.DEFAULT_SILENCE_MS);
    }

    private EmbeddedChannel connection(long silenceMs) {
        Heartbeats heartbeats = new Heartbeats(ch.eventLoop(), clock);
        ch.pipeline().addLast(new LivenessHandler(1, silenceMs, new IgnoredPeerEvents(), () -> OutboundFrame.of(
                FrameHeader.of(FrameType.HEARTBEAT, 8, JOB, 0, 1, 1, 0, 0), new byte[8]), heartbeats));
        return ch;
    }

    /** Lets {@code ms} pass in short steps, running what falls due, as a running loop would. */
    private void advance(long ms) {
        for (long left = ms; left > 0; left -= STEP_MS) {
            clock.advanceMillis(Math.min(left, STEP_MS));
            ch.runScheduledPendingTasks();
        }
    }

    @Test
    void anIdleConnectionSendsAHeartbeatOnTheFirstTickAfter1000Ms() {
        EmbeddedChannel c = connection();
        advance(750);
        assertNull(c.readOutbound(), "no heartbeat after 750 ms");
        advance(250);
        assertInstanceOf(OutboundFrame.class, c.readOutbound(), "a heartbeat at 1000 ms");
        assertNull(c.readOutbound());
        advance(750);
        assertNull(c.readOutbound(), "the heartbeat was a send: the next one waits 1000 ms again");
        advance(250);
        assertInstanceOf(OutboundFrame.class, c.readOutbound());
    }

    @Test
    void aConnectionThatWroteWithin1000MsSendsNoHeartbeat() {
        EmbeddedChannel c = connection();
        advance(900);
        c.writeOutbound("a frame of the program");
        assertEquals("a frame of the program", c.readOutbound());
        advance(1000);
        assertNull(c.readOutbound(), "the last tick, at 1750 ms, came 850 ms after the write");
        advance(250);
        assertInstanceOf(OutboundFrame.class, c.readOutbound(), "1000 to 1250 ms after the last write");
    }

    /** The connection's program writes a frame now: its last send. */
    private static void programWrites(EmbeddedChannel c) {
        c.writeOutbound("a frame of the program");
        assertEquals("a frame of the program", c.readOutbound());
    }

    @Test
    void aConnectionSilentForTheIntervalMinusOneMsAtATickSendsNoHeartbeat() {
        EmbeddedChannel c = connection();
        advance(1);
        programWrites(c);
        advance(999);
        assertNull(c.readOutbound(), "the tick at 1000 ms came 999 ms after the last send");
        advance(250);
        assertInstanceOf(OutboundFrame.class, c.readOutbound(), "the next tick, 1249 ms after it");
    }

    @Test
    void aConnectionSilentForTheIntervalAtATickSendsAHeartbeat() {
        // Joined at 0 ms: its silence counts from then.
        EmbeddedChannel c = connection();
        advance(999);
        assertNull(c.readOutbound());
        advance(1);
        assertInstanceOf(OutboundFrame.class, c.readOutbound(), "the tick at 1000 ms, 1000 ms after the last send");
        assertNull(c.readOutbound());
    }

    @Test
    void aConnectionSilentForTheIntervalPlusOneMsAtATickSendsAHeartbeat() {
        EmbeddedChannel c = connection();
        advance(249);
        programWrites(c);
        advance(751);
        assertNull(c.readOutbound(), "the tick at 1000 ms came 751 ms after the last send");
        advance(250);
        assertInstanceOf(OutboundFrame.class, c.readOutbound(), "the tick at 1250 ms, 1001 ms after it");
    }

    @Test
    void underALongerSilenceLimitAnIdleConnectionWaitsAFifthOfItBeforeItsHeartbeat() {
        // 40 s: what the launcher chooses for 64 local ranks on 2 cores.
        EmbeddedChannel c = connection(40_000);
        advance(7750);
        assertNull(c.readOutbound(), "no heartbeat within 7750 ms");
        advance(250);
        assertInstanceOf(OutboundFrame.class, c.readOutbound(), "a heartbeat at 8000 ms");
        assertNull(c.readOutbound());
    }

    @Test
    void theHeartbeatIntervalIs1000MsUpToTheDefaultLimitThenAFifthOfTheLimitUpTo15S() {
        assertEquals(1000, Limits.heartbeatIntervalMs(Limits.MIN_SILENCE_MS));
        assertEquals(1000, Limits.heartbeatIntervalMs(Limits.DEFAULT_SILENCE_MS));
        assertEquals(2000, Limits.heartbeatIntervalMs(10_000));
        assertEquals(12_000, Limits.heartbeatIntervalMs(60_000));
        assertEquals(15_000, Limits.heartbeatIntervalMs(75_000));
        assertEquals(15_000, Limits.heartbeatIntervalMs(Limits.MAX_SILENCE_MS));
    }

    @Test
    void aClosedConnectionLeavesTheTimerWhichThenStops() {
        EmbeddedChannel c = connection();
        advance(250);
        c.close();
        advance(1000);
        assertNull(c.readOutbound());
        assertEquals(-1, c.runScheduledPendingTasks(), "no tick is left scheduled");
    }
}
