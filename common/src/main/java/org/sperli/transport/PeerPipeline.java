package org.sperli.transport;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.stream.ChunkedWriteHandler;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.Future;
import java.security.cert.X509Certificate;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLPeerUnverifiedException;
import org.sperli.protocol.frame.ReceiverContext;

/**
 * The pipeline of one connection, assembled here and nowhere else, in two steps (see the package documentation for
 * the order of the handlers):
 *
 * <ol>
 *   <li>{@link #initializer}: the {@code tls} handler, on dialed and accepted connections alike, and a listener that
 *   is told the outcome of the handshake, on the channel's event loop before any frame can be read;</li>
 *   <li>{@link #established}: once the caller has checked the peer's identity, the frame handlers behind TLS.</li>
 * </ol>
 */
public final class PeerPipeline {
    private PeerPipeline() {
    }

    /** What the connection's owner does with a finished handshake (success or not), on the event loop. */
    @FunctionalInterface
    public interface HandshakeListener {
        /**
         * {@code peerOrNull} is the peer's leaf certificate after a successful handshake; {@code failure} the cause
         * otherwise.
         */
        void handshaken(Channel channel, X509Certificate peerOrNull, Throwable failure);
    }

    /**
     * Plaintext bytes SunJSSE puts into one TLS 1.3 record: 16367, not the 16384 TLS allows (JDK 17 and 25, either
     * crypto engine; {@code TlsRecordSizeTest} checks it). Netty's {@code SslHandler} hands the engine up to its
     * "wrap data size" at a time, 16384 by default; the 17 bytes the engine left each time made the handler copy
     * every following record into a buffer of its own before encrypting it, one copy of every byte sent. At this size
     * it passes slices of the written buffers, and {@link PayloadChunks} cuts payloads at record boundaries.
     */
    public static final int RECORD_PLAINTEXT_BYTES = 16367;

    /** An initializer that adds TLS with {@code engine} (one per connection) and reports the handshake. */
    public static ChannelInitializer<Channel> initializer(Supplier<SSLEngine> engine, long handshakeTimeoutMs,
                                                         HandshakeListener listener) {
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                SSLEngine e = engine.get();
                SslHandler ssl = new SslHandler(e);
                ssl.setCumulator(HeapCumulator.INSTANCE);
                ssl.setWrapDataSize(RECORD_PLAINTEXT_BYTES);
                ssl.setHandshakeTimeoutMillis(handshakeTimeoutMs);
                AtomicBoolean connected = new AtomicBoolean();
                ch.pipeline().addLast("connected", new ChannelInboundHandlerAdapter() {
                    @Override
                    public void channelActive(ChannelHandlerContext ctx) {
                        connected.set(true);
                        ctx.pipeline().remove(this);
                        ctx.fireChannelActive();
                    }
                });
                ch.pipeline().addLast("tls", ssl);
                ch.pipeline().addLast(SetupErrors.NAME, SetupErrors.INSTANCE);
                ssl.handshakeFuture().addListener((Future<? super Channel> f) -> {
                    if (!connected.get()) {
                        // A dial whose TCP connect failed: the dialer retries, there was no handshake to judge.
                        return;
                    }
                    if (!f.isSuccess()) {
                        listener.handshaken(ch, null, f.cause());
                        return;
                    }
                    X509Certificate peer;
                    try {
                        peer = (X509Certificate) e.getSession().getPeerCertificates()[0];
                    } catch (SSLPeerUnverifiedException | RuntimeException noCertificate) {
                        listener.handshaken(ch, null, noCertificate);
                        return;
                    }
                    listener.handshaken(ch, peer, null);
                });
            }
        };
    }

    /**
     * Adds the frame handlers behind TLS once the peer's identity was checked, and returns the connection as the
     * runtime uses it. Called on the channel's event loop (from the handshake listener), so no frame passes before.
     */
    public static PeerChannel established(Channel ch, int peer, ReceiverContext context, PeerEvents events,
                                          long silenceMs, Supplier<OutboundFrame> heartbeat, Heartbeats heartbeats,
                                          RecycledArrays arrays) {
        FlowControl flow = new FlowControl();
        ChannelPipeline p = ch.pipeline();
        p.remove(SetupErrors.NAME);
        p.addLast("chunks", new ChunkedWriteHandler());
        // Before the decoder: every byte from the peer is life, a 16 MiB frame still arriving over a slow link too.
        p.addLast("idle", new IdleStateHandler(silenceMs, 0, 0, TimeUnit.MILLISECONDS));
        p.addLast("frame-decoder", new FrameDecoder(context, arrays));
        p.addLast("frame-encoder", FrameEncoder.INSTANCE);
        p.addLast("flow", flow);
        p.addLast("hello-gate", new HelloGate(peer, events));
        p.addLast("liveness", new LivenessHandler(peer, silenceMs, events, heartbeat, heartbeats));
        p.addLast("peer", new PeerHandler(peer, events));
        return new PeerChannel(ch, flow);
    }
}
