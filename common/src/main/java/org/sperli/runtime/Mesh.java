package org.sperli.runtime;

import io.netty.channel.Channel;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.security.cert.X509Certificate;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import javax.net.ssl.SSLEngine;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.protocol.FrameType;
import org.sperli.protocol.ReceiverContext;
import org.sperli.protocol.payload.Abort;
import org.sperli.protocol.payload.Heartbeat;
import org.sperli.protocol.payload.Hello;
import org.sperli.transport.Connections;
import org.sperli.transport.OutboundFrame;
import org.sperli.transport.PeerChannel;
import org.sperli.transport.PeerEvents;
import org.sperli.transport.PeerPipeline;

/**
 * Connection setup of one rank (tables section 10): listen on the wildcard IPv4 address first, dial every higher
 * rank (TCP connects retried for 30 s, first after 5 ms, the pause doubling up to 100 ms; each TLS handshake bounded by 10 s and not retried), accept one
 * connection from every lower rank, check identities after each handshake, send HELLO at once, and wait until every
 * peer's HELLO was checked (the whole setup bounded by 45 s, else H1613). The listening socket is closed afterwards.
 */
final class Mesh {
    /** The first pause between connects; it doubles up to {@link RankConfig#RETRY_INTERVAL}. */
    static final long FIRST_RETRY_MS = 5;

    private final RankConfig config;
    private final Connections connections;
    private final Links links;
    private final Mailbox mailbox;
    private final FrameLink frames;
    private final JobFate fate;
    private final PeerEvents events;
    private final RefusedConnections refusals;

    Mesh(RankConfig config, Connections connections, Links links, Mailbox mailbox, FrameLink frames, JobFate fate,
         PeerEvents events) {
        this.config = config;
        this.connections = connections;
        this.links = links;
        this.mailbox = mailbox;
        this.frames = frames;
        this.fate = fate;
        this.events = events;
        this.refusals = new RefusedConnections(System::nanoTime, config.log());
    }

    /**
     * Returns once every peer's HELLO was checked; throws the job's failure otherwise (the caller closes). Runs
     * {@code listening} once the port is bound, before the first dial.
     */
    void build(Runnable listening) {
        long deadline = System.nanoTime() + config.setupTimeout().toNanos();
        if (config.size() == 1) {
            return;
        }
        String refused = connections.listen(config.ownPort(), PeerPipeline.initializer(config.tls()::server,
                config.handshakeTimeout().toMillis(), this::accepted));
        if (refused != null) {
            throw new SperliException(ErrorCode.H1613, "cannot listen at port " + config.ownPort() + ": " + refused);
        }
        listening.run();
        for (int peer = config.rank() + 1; peer < config.size(); peer++) {
            dial(peer, System.nanoTime() + config.connectRetry().toNanos());
        }
        awaitHellos(deadline);
        connections.stopListening();
    }

    /** An accepted connection after its handshake; a failed one closes only itself (a stranger cannot end a job). */
    private void accepted(Channel ch, X509Certificate cert, Throwable failure) {
        if (failure != null) {
            refusals.refused(ch.remoteAddress(), failure);
            ch.close();
            return;
        }
        int peer;
        try {
            peer = config.certificateCheck().rankOf(cert);
            links.claim(peer, peer < config.rank());
        } catch (SperliException e) {
            frames.abort(Abort.Reason.REFUSED, e.code(), e.reason(), e);
            ch.close();
            return;
        }
        established(ch, peer);
    }

    private void dial(int peer, long retryDeadline) {
        PeerAddress entry = config.hosts().get(peer);
        InetSocketAddress address = new InetSocketAddress(firstIpv4(entry.host()), entry.port());
        long interval = FIRST_RETRY_MS;
        while (true) {
            fate.throwIfFailed();
            SSLEngine engine;
            try {
                engine = config.tls().client(entry.host(), entry.port());
            } catch (RuntimeException e) {
                throw failWith(Abort.Reason.REFUSED, ErrorCode.H1611, "no TLS engine for rank " + peer + ": " + e);
            }
            Supplier<SSLEngine> once = () -> engine;
            if (connections.dial(address, PeerPipeline.initializer(once, config.handshakeTimeout().toMillis(),
                    (ch, cert, failure) -> dialed(ch, peer, entry, cert, failure)))) {
                return;
            }
            if (System.nanoTime() - retryDeadline > 0) {
                throw failWith(Abort.Reason.PEER_LOST, ErrorCode.H1613, "could not reach rank " + peer + " at " + entry.host() + ":"
                        + entry.port() + " within " + config.connectRetry().toSeconds() + " s");
            }
            // A peer that is about to listen is met within milliseconds; one that is slow costs at most 100 ms more.
            sleep(interval);
            interval = Math.min(2 * interval, RankConfig.RETRY_INTERVAL.toMillis());
        }
    }

    private void dialed(Channel ch, int peer, PeerAddress entry, X509Certificate cert, Throwable failure) {
        try {
            if (failure != null) {
                throw new SperliException(ErrorCode.H1611, "TLS handshake with rank " + peer + " at "
                        + entry.host() + ":" + entry.port() + " failed: " + failure.getMessage());
            }
            config.certificateCheck().checkDialedHost(cert, entry.host());
            int named = config.certificateCheck().rankOf(cert);
            if (named != peer) {
                throw new SperliException(ErrorCode.H1611, "dialed rank " + peer + " at " + entry.host()
                        + " but its certificate names rank " + named);
            }
            links.claim(peer, true);
        } catch (SperliException e) {
            frames.abort(Abort.Reason.REFUSED, e.code(), e.reason(), e);
            ch.close();
            return;
        }
        established(ch, peer);
    }

    /** After the handshake and identity checks, on the event loop: the frame pipeline, then our HELLO at once. */
    private void established(Channel ch, int peer) {
        ReceiverContext context = new ReceiverContext(config.jobId(), config.size(), config.rank(), peer,
                config.incarnation());
        AtomicLong heartbeats = new AtomicLong();
        PeerChannel channel = PeerPipeline.established(ch, peer, context, events, config.silenceMs(),
                () -> OutboundFrame.of(frames.header(FrameType.HEARTBEAT, Heartbeat.LENGTH, peer, 0, 0),
                        new Heartbeat(heartbeats.incrementAndGet()).toBytes()));
        mailbox.attach(peer, channel.flow());
        links.put(peer, channel);
        byte[] hello = Hello.v1(config.ownToken()).toBytes();
        channel.write(OutboundFrame.of(frames.header(FrameType.HELLO, hello.length, peer, 0, 0), hello));
    }

    private void awaitHellos(long deadline) {
        try {
            if (links.awaitHellos(fate, deadline)) {
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        throw failWith(Abort.Reason.PEER_LOST, ErrorCode.H1613, "setup did not complete within " + config.setupTimeout().toSeconds()
                + " s; missing HELLO from ranks " + links.missing());
    }

    private SperliException failWith(Abort.Reason reason, ErrorCode code, String message) {
        frames.abort(reason, code, message, null);
        SperliException f = fate.failure();
        return new SperliException(f.code(), f.reason());
    }

    private static InetAddress firstIpv4(String host) {
        try {
            for (InetAddress a : InetAddress.getAllByName(host)) {
                if (a instanceof Inet4Address) {
                    return a;
                }
            }
            throw new SperliException(ErrorCode.H1613, "host " + host + " has no IPv4 address");
        } catch (UnknownHostException e) {
            throw new SperliException(ErrorCode.H1613, "cannot resolve host " + host);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SperliException(ErrorCode.H1613, "interrupted while connecting");
        }
    }
}
