package org.sperli.runtime;

import io.netty.channel.ChannelFuture;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.sperli.jvm.Clock;
import org.sperli.protocol.frame.FrameType;
import org.sperli.transport.OutboundFrame;
import org.sperli.transport.PeerChannel;

/**
 * The normal end of a rank (tables section 10): BYE on every connection, then each closed (close_notify) once its
 * peer has read the BYE, waiting at most {@link #BYE_LINGER} for the peers, so that our close cannot reset a
 * connection whose peer still has our last messages unread. After a failure only the connections are closed.
 *
 * <p>The BYEs themselves are waited for up to the silence limit, not only the linger: a close discards a write that
 * is still queued, and a peer that then sees the close without the BYE fails the job (H1613). On a machine with far
 * more ranks than cores, writing a BYE can take longer than the linger (see docs/performance.md, section 5).
 */
final class Departure {
    /** How long a leaving rank waits for its BYEs to be read. */
    static final Duration BYE_LINGER = Duration.ofSeconds(2);
    private static final long CLOSE_WAIT_NS = TimeUnit.SECONDS.toNanos(2);

    private Departure() {
    }

    /** Leaves, with BYE unless the job failed: the BYEs' writes bounded by {@code byeWriteBound}, on {@code clock}. */
    static void leave(FrameLink frames, Links links, JobFate fate, Duration byeWriteBound, Clock clock) {
        frames.awaitVerdictOnLostPeers();
        boolean sayBye = fate.leave();
        List<ChannelFuture> byes = sayBye
                ? links.writeToAll(peer -> true, peer -> OutboundFrame.empty(frames.header(FrameType.BYE, 0, peer, 0,
                        0)))
                : List.of();
        long writeEnd = clock.nanoTime() + byeWriteBound.toNanos();
        for (ChannelFuture bye : byes) {
            bye.awaitUninterruptibly(Math.max(0, writeEnd - clock.nanoTime()), TimeUnit.NANOSECONDS);
        }
        long lingerEnd = clock.nanoTime() + BYE_LINGER.toNanos();
        List<PeerChannel> all = links.all();
        if (!byes.isEmpty()) {
            // Keep reading (the mailbox drops what comes) until each peer has read our BYE and closed.
            for (PeerChannel c : all) {
                c.flow().holdOpen();
            }
            for (PeerChannel c : all) {
                c.awaitClosed(lingerEnd - clock.nanoTime());
            }
        }
        for (PeerChannel c : all) {
            c.close().awaitUninterruptibly(CLOSE_WAIT_NS, TimeUnit.NANOSECONDS);
        }
        frames.endConnections();
    }
}
