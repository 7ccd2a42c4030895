package org.sperli.runtime;

import io.netty.channel.Channel;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import javax.net.ssl.SSLEngine;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.protocol.Limits;
import org.sperli.protocol.frame.FrameType;
import org.sperli.protocol.frame.ReceiverContext;
import org.sperli.protocol.payload.Abort;
import org.sperli.protocol.payload.Heartbeat;
import org.sperli.protocol.payload.Hello;
import org.sperli.transport.Connections;
import org.sperli.transport.OutboundFrame;
import org.sperli.transport.PeerChannel;
import org.sperli.transport.PeerEvents;
import org.sperli.transport.PeerPipeline;

/**
 * Connection setup of one rank (protocol section 5): listen on the wildcard IPv4 address first, dial every higher rank
 * (in order, each until it answers: 5 ms between connects at first, doubling up to 100 ms; each TLS handshake bounded
 * by 120 s and not retried), accept one connection from every lower rank, check identities after each handshake, send
 * HELLO at once, and wait until every peer's HELLO was checked. The setup fails with H1613 only when it stops moving:
 * 30 s in which no peer's port answered, no handshake finished and no HELLO was checked (120 s before the first of
 * these and while a handshake is under way, {@link Links#stallBound}). A fixed bound for the whole setup failed
 * healthy jobs of many ranks on a busy machine, where the last rank may start listening long after the first. The
 * listening socket is closed afterwards.
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
        this.refusals = new RefusedConnections(config.clock()::nanoTime, config.log());
    }

    /**
     * Returns once every peer's HELLO was checked; throws the job's failure otherwise (the caller closes). Runs
     * {@code listening} once the port is bound, before the first dial.
     */
    void build(Runnable listening) {
        if (config.size() == 1) {
            return;
        }
        links.setupBegins(config.setupStall());
        // The engine is made once per accepted connection, as its handshake begins.
        Supplier<SSLEngine> server = () -> {
            links.handshakeBegins();
            return config.tls().server();
        };
        String refused = connections.listen(config.ownPort(), PeerPipeline.initializer(server,
                config.handshakeTimeout().toMillis(), this::accepted));
        if (refused != null) {
            throw new SperliException(ErrorCode.H1613, listenFailure(config.ownPort(), refused));
        }
        listening.run();
        dialHigherRanks();
        awaitHellos();
        connections.stopListening();
    }

    /**
     * Why the rank cannot listen at {@code port}, {@code refused} being the bind's error. A port held by another
     * process is said as such: under H1613 alone it read as a lost peer, and the operator's remedy is another port,
     * not a look at the network. (The kernel hands ports of its ephemeral range to outgoing connections, so a rank
     * port in that range can be taken by any dial on the host, the job's own included.)
     */
    static String listenFailure(int port, String refused) {
        if (refused.contains("Address already in use")) {
            return "port " + port + " is held by another process on this host, so this rank cannot listen there;"
                    + " start the job with another --port-base, or give the rank another port in the host list";
        }
        return "cannot listen at port " + port + ": " + refused;
    }

    /** An accepted connection after its handshake; a failed one closes only itself (a stranger cannot end a job). */
    private void accepted(Channel ch, X509Certificate cert, Throwable failure) {
        links.handshakeEnds();
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

    /**
     * Dials every higher rank in order, each until its TCP connect succeeded: ranks are started in order, so the next
     * one is the likeliest to listen, and at most one connect is tried per pause (64 ranks each trying every missing
     * peer per round made tens of thousands of refused connects a second while the job came up).
     */
    private void dialHigherRanks() {
        for (int peer = config.rank() + 1; peer < config.size(); peer++) {
            long interval = FIRST_RETRY_MS;
            while (true) {
                fate.throwIfFailed();
                if (dial(peer)) {
                    links.progressed();
                    break;
                }
                if (links.stalled()) {
                    PeerAddress entry = config.hosts().get(peer);
                    throw failWith(Abort.Reason.PEER_LOST, ErrorCode.H1613, "could not reach rank " + peer + " at "
                            + entry.host() + ":" + entry.port() + ", and the setup has not moved for "
                            + seconds(links.stallBound()));
                }
                // A peer about to listen is met within milliseconds; a slow one costs at most 100 ms more.
                sleep(interval);
                interval = Math.min(2 * interval, RankConfig.RETRY_INTERVAL.toMillis());
            }
        }
    }

    /** One TCP connect to {@code peer}; true when it was accepted (the handshake then goes on by itself). */
    private boolean dial(int peer) {
        PeerAddress entry = config.hosts().get(peer);
        InetSocketAddress address;
        try {
            address = new InetSocketAddress(firstIpv4(entry.host()), entry.port());
        } catch (SperliException e) {
            // The peers already connected must hear why this rank leaves: ABORT, not the BYE of a normal end.
            throw failWith(Abort.Reason.PEER_LOST, ErrorCode.H1613, "rank " + peer + ": " + e.reason());
        }
        SSLEngine engine;
        try {
            engine = config.tls().client(entry.host(), entry.port());
        } catch (RuntimeException e) {
            throw failWith(Abort.Reason.REFUSED, ErrorCode.H1611, "no TLS engine for rank " + peer + ": " + e);
        }
        Supplier<SSLEngine> once = () -> engine;
        boolean connected = connections.dial(address, PeerPipeline.initializer(once,
                config.handshakeTimeout().toMillis(), (ch, cert, failure) -> dialed(ch, peer, entry, cert, failure)));
        if (connected) {
            // Counted after the fact: when the handshake ends first, the count passes through -1 and back to 0.
            links.handshakeBegins();
        }
        return connected;
    }

    private void dialed(Channel ch, int peer, PeerAddress entry, X509Certificate cert, Throwable failure) {
        links.handshakeEnds();
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
                        new Heartbeat(heartbeats.incrementAndGet()).toBytes()), connections.heartbeats(),
                connections.recycledArrays());
        mailbox.attach(peer, channel.flow());
        links.put(peer, channel);
        byte[] hello = (config.collectives() == CollectiveShape.MESH
                ? Hello.announcing(Limits.FEATURE_MESH_COLLECTIVES, config.ownToken())
                : Hello.v1(config.ownToken())).toBytes();
        channel.write(OutboundFrame.of(frames.header(FrameType.HELLO, hello.length, peer, 0, 0), hello));
        if (frames.trace() != null) {
            frames.trace().helloSent(peer);
        }
    }

    private void awaitHellos() {
        try {
            if (links.awaitHellos(fate)) {
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        throw failWith(Abort.Reason.PEER_LOST, ErrorCode.H1613, "setup has not moved for "
                + seconds(links.stallBound()) + "; missing HELLO from ranks " + links.missing());
    }

    private static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
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
