/**
 * The Netty adapter: the sockets of one rank and the channel pipeline of each connection, nothing else.
 *
 * <p>Handlers, in pipeline order, all added by {@link org.sperli.transport.PeerPipeline}: {@code connected} (notes
 * that TCP connected, then removes itself), {@code tls} (SslHandler, TLS 1.3 only), {@code setup-errors}
 * ({@link org.sperli.transport.SetupErrors}: closes on an error before the peer is known, removed once it is),
 * {@code frame-decoder}
 * ({@link org.sperli.transport.FrameDecoder}: acts on {@link org.sperli.protocol.HeaderCheck} verdicts),
 * {@code frame-encoder}, {@code idle} (IdleStateHandler; after the decoder so that only whole, not dropped frames
 * count as delivered, and it sees outbound frames, not bytes), {@code flow} ({@link org.sperli.transport.FlowControl}:
 * reading paused while too much is queued), {@code hello-gate} (removes itself after HELLO), {@code liveness}
 * (heartbeats and silence), {@code peer} (hands frames to the runtime).
 *
 * <p>{@link org.sperli.transport.Connections} owns the event loops and sockets; the runtime sees a connection only as
 * a {@link org.sperli.transport.PeerChannel}. Protocol decisions live in {@code org.sperli.protocol}; this package
 * only moves bytes and applies verdicts.
 */
package org.sperli.transport;
