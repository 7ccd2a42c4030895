package org.sperli.runtime;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.timeout.IdleStateHandler;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.security.cert.X509Certificate;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLEngine;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.protocol.FrameType;
import org.sperli.protocol.Limits;
import org.sperli.protocol.ReceiverContext;
import org.sperli.protocol.payload.Abort;
import org.sperli.protocol.payload.Heartbeat;
import org.sperli.protocol.payload.Hello;
import org.sperli.transport.FrameDecoder;
import org.sperli.transport.FrameEncoder;
import org.sperli.transport.HelloGate;
import org.sperli.transport.LivenessHandler;
import org.sperli.transport.OutboundFrame;
import org.sperli.transport.PeerHandler;

/**
 * Connection setup of one rank (tables section 10): listen on the wildcard IPv4 address first, dial every higher
 * rank (TCP connects retried every 100 ms for 30 s; each TLS handshake bounded by 10 s and not retried), accept one
 * connection from every lower rank, check identities after each handshake, send HELLO at once, and wait until every
 * peer's HELLO was checked (the whole setup bounded by 45 s, else H1613). The listening socket is closed afterwards.
 */
final class Mesh {
    private final RankRuntime runtime;
    private final RankConfig config;

    Mesh(RankRuntime runtime) {
        this.runtime = runtime;
        this.config = runtime.config;
    }

    void build() {
        long deadline = System.nanoTime() + config.setupTimeout().toNanos();
        if (config.size() == 1) {
            return;
        }
        runtime.group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
        try {
            listen();
            for (int peer = config.rank() + 1; peer < config.size(); peer++) {
                dial(peer, System.nanoTime() + config.connectRetry().toNanos());
            }
            awaitHellos(deadline);
        } catch (RuntimeException e) {
            runtime.close();
            throw e;
        }
        runtime.server.close();
        runtime.server = null;
    }

    private void listen() {
        ServerBootstrap b = new ServerBootstrap()
                .group(runtime.group)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        accepted(ch);
                    }
                });
        ChannelFuture bound = b.bind(new InetSocketAddress("0.0.0.0", config.ownPort())).awaitUninterruptibly();
        if (!bound.isSuccess()) {
            throw new SperliException(ErrorCode.H1613, "cannot listen at port " + config.ownPort() + ": "
                    + bound.cause().getMessage());
        }
        runtime.server = bound.channel();
    }

    /** An accepted connection: TLS first; a failed handshake closes only this connection (a stranger cannot end a job). */
    private void accepted(SocketChannel ch) {
        SSLEngine engine = config.tls().server();
        SslHandler ssl = new SslHandler(engine);
        ssl.setHandshakeTimeoutMillis(config.handshakeTimeout().toMillis());
        ch.pipeline().addLast("tls", ssl);
        ssl.handshakeFuture().addListener(f -> {
            if (!f.isSuccess()) {
                config.log().accept("refused a connection from " + ch.remoteAddress() + ": "
                        + f.cause().getMessage());
                ch.close();
                return;
            }
            int peer;
            try {
                peer = config.certificateCheck().rankOf(peerCertificate(engine));
                claim(peer, ch, peer < config.rank());
            } catch (SperliException e) {
                runtime.abort(Abort.Reason.REFUSED, e.code(), e.reason(), e);
                ch.close();
                return;
            }
            established(ch, peer);
        });
    }

    private void dial(int peer, long retryDeadline) {
        PeerAddress entry = config.hosts().get(peer);
        InetAddress address = firstIpv4(entry.host());
        while (true) {
            runtime.throwIfFailedLocked();
            Bootstrap b = new Bootstrap()
                    .group(runtime.group)
                    .channel(NioSocketChannel.class)
                    .option(ChannelOption.TCP_NODELAY, true)
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 1000)
                    .handler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            // handlers are added once the TCP connect succeeded
                        }
                    });
            ChannelFuture connect = b.connect(new InetSocketAddress(address, entry.port())).awaitUninterruptibly();
            if (connect.isSuccess()) {
                Channel ch = connect.channel();
                // On the channel's event loop, so that the handshake listener is in place before the handshake can
                // complete: a listener added later runs as a task, and the peer's HELLO, read before it, would pass
                // a pipeline without a frame decoder and be lost.
                ch.eventLoop().execute(() -> startClientTls(ch, peer, entry));
                return;
            }
            if (System.nanoTime() - retryDeadline > 0) {
                throw failWith(ErrorCode.H1613, "could not reach rank " + peer + " at " + entry.host() + ":"
                        + entry.port() + " within " + config.connectRetry().toSeconds() + " s");
            }
            sleep(RankConfig.RETRY_INTERVAL.toMillis());
        }
    }

    private void startClientTls(Channel ch, int peer, PeerAddress entry) {
        SSLEngine engine;
        try {
            engine = config.tls().client(entry.host(), entry.port());
        } catch (RuntimeException e) {
            runtime.abort(Abort.Reason.REFUSED, ErrorCode.H1611, "no TLS engine for rank " + peer + ": " + e, e);
            ch.close();
            return;
        }
        SslHandler ssl = new SslHandler(engine);
        ssl.setHandshakeTimeoutMillis(config.handshakeTimeout().toMillis());
        ch.pipeline().addLast("tls", ssl);
        ssl.handshakeFuture().addListener(f -> {
            try {
                if (!f.isSuccess()) {
                    throw new SperliException(ErrorCode.H1611, "TLS handshake with rank " + peer + " at "
                            + entry.host() + ":" + entry.port() + " failed: " + f.cause().getMessage());
                }
                X509Certificate cert = peerCertificate(engine);
                config.certificateCheck().checkDialedHost(cert, entry.host());
                int named = config.certificateCheck().rankOf(cert);
                if (named != peer) {
                    throw new SperliException(ErrorCode.H1611, "dialed rank " + peer + " at " + entry.host()
                            + " but its certificate names rank " + named);
                }
                claim(peer, ch, true);
            } catch (SperliException e) {
                runtime.abort(Abort.Reason.REFUSED, e.code(), e.reason(), e);
                ch.close();
                return;
            }
            established(ch, peer);
        });
    }

    /** Records the channel of {@code peer}; a rank that is not expected here, or already connected, is H1611. */
    private void claim(int peer, Channel ch, boolean expected) {
        runtime.lock.lock();
        try {
            PeerLink link = peer >= 0 && peer < config.size() ? runtime.peers[peer] : null;
            if (!expected || link == null || link.channel != null) {
                throw new SperliException(ErrorCode.H1611, "unexpected connection from rank " + peer
                        + (link != null && link.channel != null ? " (already connected)" : ""));
            }
            link.channel = ch;
        } finally {
            runtime.lock.unlock();
        }
    }

    /** After the handshake and identity checks: the frame pipeline, then our HELLO at once. */
    private void established(Channel ch, int peer) {
        ChannelPipeline p = ch.pipeline();
        ReceiverContext context = new ReceiverContext(config.jobId(), config.size(), config.rank(), peer,
                config.incarnation());
        AtomicLong heartbeats = new AtomicLong();
        p.addLast("frame-decoder", new FrameDecoder(context));
        p.addLast("frame-encoder", FrameEncoder.INSTANCE);
        p.addLast("idle", new IdleStateHandler(config.silenceMs(), Limits.HEARTBEAT_INTERVAL_MS, 0,
                TimeUnit.MILLISECONDS));
        p.addLast("hello-gate", new HelloGate(peer, runtime));
        p.addLast("liveness", new LivenessHandler(peer, runtime, () -> OutboundFrame.of(
                runtime.header(FrameType.HEARTBEAT, Heartbeat.LENGTH, peer, 0, 0),
                new Heartbeat(heartbeats.incrementAndGet()).toBytes())));
        p.addLast("peer", new org.sperli.transport.PeerHandler(peer, runtime));
        byte[] hello = Hello.v1(config.ownToken()).toBytes();
        ch.writeAndFlush(OutboundFrame.of(runtime.header(FrameType.HELLO, hello.length, peer, 0, 0), hello));
    }

    private void awaitHellos(long deadline) {
        runtime.lock.lock();
        try {
            while (true) {
                runtime.throwIfFailed();
                boolean all = true;
                for (PeerLink link : runtime.peers) {
                    all &= link == null || link.helloDone;
                }
                if (all) {
                    return;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                runtime.changed.awaitNanos(left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            runtime.lock.unlock();
        }
        throw failWith(ErrorCode.H1613, "setup did not complete within " + config.setupTimeout().toSeconds()
                + " s; missing HELLO from ranks " + missing());
    }

    private String missing() {
        StringBuilder sb = new StringBuilder();
        for (PeerLink link : runtime.peers) {
            if (link != null && !link.helloDone) {
                sb.append(sb.length() == 0 ? "" : ",").append(link.rank);
            }
        }
        return sb.toString();
    }

    private SperliException failWith(ErrorCode code, String message) {
        runtime.abort(Abort.Reason.PEER_LOST, code, message, null);
        SperliException f = runtime.failure();
        return new SperliException(f.code(), f.reason());
    }

    private static X509Certificate peerCertificate(SSLEngine engine) {
        try {
            return (X509Certificate) engine.getSession().getPeerCertificates()[0];
        } catch (Exception e) {
            throw new SperliException(ErrorCode.H1611, "peer presented no certificate");
        }
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
