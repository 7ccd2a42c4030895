/**
 * The Netty adapter: the channel pipeline of one connection and nothing else.
 *
 * <p>Handlers, in pipeline order: {@code tls} (JDK SslHandler, TLS 1.3 only), {@code frame-decoder}
 * ({@link org.sperli.transport.FrameDecoder}: acts on {@link org.sperli.protocol.HeaderCheck} verdicts),
 * {@code frame-encoder}, {@code idle} (IdleStateHandler; after the decoder so that only whole, not dropped frames
 * count as delivered, and it sees outbound frames, not bytes), {@code hello-gate} (removes itself after HELLO),
 * {@code liveness} (heartbeats and silence), {@code peer} (hands frames to the runtime). Protocol decisions live in
 * {@code org.sperli.protocol}; this package only moves bytes and applies verdicts.
 */
package org.sperli.transport;
