package org.sperli.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.sperli.jvm.Clock;

/** The setup's stall bound: short once a peer was heard from, long before that and while a handshake is under way. */
class LinksTest {
    private static final Duration STALL = Duration.ofSeconds(30);
    private static final Duration LONG = Duration.ofSeconds(120);

    @Test
    void theStallBoundIsLongUntilAPeerWasHeardFrom() {
        Links links = new Links(4, 1, Clock.SYSTEM);
        links.setupBegins(STALL);
        assertEquals(LONG, links.stallBound());
        links.progressed();
        assertEquals(STALL, links.stallBound());
    }

    @Test
    void theStallBoundIsLongWhileAnyHandshakeIsUnderWay() {
        Links links = new Links(4, 1, Clock.SYSTEM);
        links.setupBegins(STALL);
        links.progressed();
        links.handshakeBegins();
        links.handshakeBegins();
        assertEquals(LONG, links.stallBound(), "a busy rank finishes none of its handshakes for a while");
        links.handshakeEnds();
        assertEquals(LONG, links.stallBound(), "one is still under way");
        links.handshakeEnds();
        assertEquals(STALL, links.stallBound());
    }

    @Test
    void aDialedHandshakeThatEndsBeforeItIsCountedLeavesTheBoundShort() {
        Links links = new Links(4, 1, Clock.SYSTEM);
        links.setupBegins(STALL);
        links.progressed();
        links.handshakeEnds();
        assertEquals(STALL, links.stallBound());
        links.handshakeBegins();
        assertEquals(STALL, links.stallBound(), "ended and begun: nothing is under way");
    }
}
