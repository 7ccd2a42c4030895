package org.sperli.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.ssl.SslHandshakeTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import org.junit.jupiter.api.Test;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.testing.ManualClock;
import org.sperli.transport.ClockTicker;
import org.sperli.transport.PeerPipeline;

/**
 * Protocol section 12 and 13.5, the bounds of the connection setup, on a clock only the test moves: the setup fails
 * once it has gone the stall bound without progress (30 s; four times that before any peer was heard from and while
 * a handshake is under way), at the bound itself, not a millisecond before; and a TLS handshake that has not finished
 * within 120 s fails at 120 s.
 */
class SetupBoundsTest {
    private static final Duration STALL = RankConfig.SETUP_STALL;
    private static final Duration FIRST_CONTACT = STALL.multipliedBy(Links.FIRST_CONTACT_FACTOR);
    private static final Duration ONE_MS = Duration.ofMillis(1);

    private final ManualClock clock = new ManualClock();
    private final Links links = new Links(4, 1, clock);
    private final JobFate fate = new JobFate(clock);

    /** A setup that has heard from a peer: its bound is the stall bound itself. */
    private void setupThatHeardFromAPeer() {
        links.setupBegins(STALL);
        links.progressed();
        assertEquals(STALL, links.stallBound());
    }

    /** Whether the wait for the HELLOs gives up now: it does not block once the bound has passed. */
    private boolean helloWaitGivesUp() throws Exception {
        CompletableFuture<Boolean> wait = CompletableFuture.supplyAsync(() -> {
            try {
                return links.awaitHellos(fate);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        try {
            return !wait.get(200, TimeUnit.MILLISECONDS);
        } catch (TimeoutException stillWaiting) {
            // Still waiting: end the wait the way the job's end would, so that the thread does not outlive the test.
            fate.fail(new SperliException(ErrorCode.H1613, "test over"), null, () -> { });
            links.wakeAll();
            return false;
        }
    }

    @Test
    void aSetupWithoutProgressForTheStallBoundMinusOneMsHasNotStalled() throws Exception {
        setupThatHeardFromAPeer();
        clock.advance(STALL.minus(ONE_MS));
        assertFalse(links.stalled());
        assertFalse(helloWaitGivesUp());
    }

    @Test
    void aSetupWithoutProgressForTheStallBoundHasStalled() throws Exception {
        setupThatHeardFromAPeer();
        clock.advance(STALL);
        assertTrue(links.stalled(), "the dialing gives up at the bound");
        assertTrue(helloWaitGivesUp(), "and so does the wait for the HELLOs");
    }

    @Test
    void aSetupWithoutProgressForTheStallBoundPlusOneMsHasStalled() throws Exception {
        setupThatHeardFromAPeer();
        clock.advance(STALL.plus(ONE_MS));
        assertTrue(links.stalled());
        assertTrue(helloWaitGivesUp());
    }

    @Test
    void progressStartsTheStallBoundAgain() {
        setupThatHeardFromAPeer();
        clock.advance(STALL.minus(ONE_MS));
        links.helloChecked(2, 1L);
        clock.advance(STALL.minus(ONE_MS));
        assertFalse(links.stalled());
        clock.advance(ONE_MS);
        assertTrue(links.stalled());
    }

    @Test
    void beforeAnyPeerWasHeardFromTheSetupStallsAtFourTimesTheBound() {
        links.setupBegins(STALL);
        clock.advance(FIRST_CONTACT.minus(ONE_MS));
        assertFalse(links.stalled());
        clock.advance(ONE_MS);
        assertTrue(links.stalled());
    }

    @Test
    void whileAHandshakeIsUnderWayTheSetupStallsAtFourTimesTheBound() {
        setupThatHeardFromAPeer();
        links.handshakeBegins();
        clock.advance(FIRST_CONTACT.minus(ONE_MS));
        assertFalse(links.stalled());
        clock.advance(ONE_MS);
        assertTrue(links.stalled());
    }

    @Test
    void aHandshakeUnfinishedForTheBoundMinusOneMsGoesOnAndFailsAtTheBound() throws Exception {
        SSLContext tls = SSLContext.getInstance("TLSv1.3");
        tls.init(null, null, null);
        SSLEngine engine = tls.createSSLEngine("127.0.0.1", 23000);
        engine.setUseClientMode(true);
        AtomicReference<Throwable> failed = new AtomicReference<>();
        EmbeddedChannel dialed = EmbeddedChannel.builder().ticker(ClockTicker.of(clock))
                .handlers(PeerPipeline.initializer(() -> engine, RankConfig.HANDSHAKE_TIMEOUT.toMillis(),
                        (ch, peer, failure) -> failed.set(failure)))
                .build();
        assertTrue(dialed.readOutbound() != null, "the ClientHello went out; the peer never answers");
        clock.advance(RankConfig.HANDSHAKE_TIMEOUT.minus(ONE_MS));
        dialed.runPendingTasks();
        assertNull(failed.get(), "failed before the bound");
        clock.advance(ONE_MS);
        dialed.runPendingTasks();
        assertInstanceOf(SslHandshakeTimeoutException.class, failed.get());
        assertFalse(dialed.isOpen(), "a handshake that timed out closes its connection");
    }
}
