package org.sperli.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sperli.SperliException;
import org.sperli.protocol.JobId;
import org.sperli.protocol.frame.FrameType;
import org.sperli.protocol.frame.ReceiverContext;
import org.sperli.protocol.payload.Hello;
import org.sperli.testing.ManualClock;

/**
 * Protocol 7.5 and section 12, the silence limit: a connection from which no byte has arrived for the limit is lost,
 * so at the limit itself, not one millisecond before; every byte that arrives counts, a piece of a frame too; and a
 * rank that does not read a connection does not judge it. On a connection's real pipeline, with a clock only the
 * test moves.
 */
class SilenceLimitTest {
    private static final long LIMIT_MS = 5000;
    private static final ReceiverContext CONTEXT = new ReceiverContext(JobId.of(new byte[JobId.LENGTH]), 2, 0, 1, 1);

    private final ManualClock clock = new ManualClock();
    private final Silences events = new Silences();
    private final EmbeddedConnection connection = EmbeddedConnection.established(clock, CONTEXT, events, LIMIT_MS);

    /** Lets {@code ms} pass without a byte from the peer. */
    private void silentFor(long ms) {
        clock.advanceMillis(ms);
        connection.runDue();
    }

    @Test
    void aPeerSilentForTheLimitMinusOneMsIsStillAlive() {
        silentFor(LIMIT_MS - 1);
        assertEquals(0, events.silent, "lost before the limit");
    }

    @Test
    void aPeerSilentForTheLimitIsLost() {
        silentFor(LIMIT_MS - 1);
        silentFor(1);
        assertEquals(1, events.silent);
    }

    @Test
    void aPeerSilentForTheLimitPlusOneMsIsLost() {
        silentFor(LIMIT_MS + 1);
        assertEquals(1, events.silent);
    }

    @Test
    void aPieceOfAFrameFromThePeerStartsTheLimitAgain() {
        byte[] hello = connection.frame(FrameType.HELLO, Hello.v1(new byte[16]).toBytes());
        silentFor(LIMIT_MS - 1);
        // Ten bytes of the frame's header: not a frame yet, but life (a 16 MiB frame on a slow link is not silence).
        connection.receive(Arrays.copyOf(hello, 10));
        silentFor(LIMIT_MS - 1);
        assertEquals(0, events.silent, "the limit counts from the last byte");
        silentFor(1);
        assertEquals(1, events.silent, "a limit after the last byte");
        assertEquals(List.of(), events.other, "no frame was whole");
    }

    @Test
    void aPeerWhoseConnectionThisRankDoesNotReadIsNotJudged() {
        // Flow control: this rank's queues are full, so the silence is its own.
        connection.channel().config().setAutoRead(false);
        silentFor(LIMIT_MS + 1);
        assertEquals(0, events.silent);
        connection.channel().config().setAutoRead(true);
        silentFor(LIMIT_MS);
        assertEquals(1, events.silent, "judged again once it is read again");
    }

    /** Counts the silences; nothing else may happen here. */
    private static final class Silences implements PeerEvents {
        int silent;
        final List<String> other = new ArrayList<>();

        @Override
        public void onHello(int peer, Frame hello) {
            other.add("hello");
        }

        @Override
        public void onFrame(int peer, Frame frame) {
            other.add("frame");
        }

        @Override
        public void onRefused(int peer, SperliException refusal) {
            other.add("refused " + refusal.getMessage());
        }

        @Override
        public void onSilent(int peer) {
            silent++;
        }

        @Override
        public void onClosed(int peer) {
            other.add("closed");
        }
    }
}
