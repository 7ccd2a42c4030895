package org.sperli.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.concurrent.atomic.AtomicLong;
import org.sperli.identity.TestJob;
import org.sperli.identity.TlsContexts;
import org.sperli.protocol.frame.FrameHeader;
import org.sperli.protocol.frame.FrameType;
import org.sperli.protocol.frame.ReceiverContext;
import org.sperli.protocol.payload.Heartbeat;
import org.sperli.testing.ManualClock;

/**
 * Two ends of one connection as embedded channels with the job's certificates (rank 0 dials, rank 1 accepts), their
 * frame handlers added behind TLS once the handshake succeeded, as a rank does; for tests of what the transport does
 * with a connection's bytes.
 */
final class EmbeddedEnds {
    private EmbeddedEnds() {
    }

    /** One end; {@code events} hears what its frame handlers report. */
    static EmbeddedChannel end(TestJob job, boolean dialer, PeerEvents events) {
        TlsEngineFactory engines = new JdkTlsEngineFactory(TlsContexts.create(job.job, job.size(),
                job.ca.certificate(), job.credentials(dialer ? 0 : 1)));
        int own = dialer ? 0 : 1;
        ManualClock clock = new ManualClock();
        return new EmbeddedChannel(PeerPipeline.initializer(
                () -> dialer ? engines.client("node1.example", 47001) : engines.server(), 60_000,
                (ch, cert, failure) -> {
                    if (failure == null) {
                        AtomicLong beats = new AtomicLong();
                        ReceiverContext context = new ReceiverContext(job.job, 2, own, 1 - own, 1);
                        PeerPipeline.established(ch, 1 - own, context, events, 60_000,
                                () -> OutboundFrame.of(FrameHeader.of(FrameType.HEARTBEAT, Heartbeat.LENGTH,
                                        job.job, own, 1 - own, 1, 0, 0),
                                        new Heartbeat(beats.incrementAndGet()).toBytes()),
                                new Heartbeats(ch.eventLoop(), clock), new RecycledArrays());
                    }
                }));
    }

    /** Passes the handshake's flights between the two ends until neither has more to send. */
    static void handshake(EmbeddedChannel client, EmbeddedChannel server) {
        for (int i = 0; i < 100; i++) {
            ByteBuf toServer = drain(client);
            ByteBuf toClient = drain(server);
            if (!toServer.isReadable() && !toClient.isReadable()) {
                toServer.release();
                toClient.release();
                return;
            }
            server.writeInbound(toServer);
            client.writeInbound(toClient);
        }
        throw new AssertionError("the handshake did not end within 100 flights");
    }

    /** Everything {@code ch} wrote to its socket so far, in one buffer. */
    static ByteBuf drain(EmbeddedChannel ch) {
        ByteBuf all = Unpooled.buffer();
        Object o;
        while ((o = ch.readOutbound()) != null) {
            all.writeBytes((ByteBuf) o);
            ((ByteBuf) o).release();
        }
        return all;
    }
}
