/**
 * The Netty adapter: the sockets of one rank and the channel pipeline of each connection, nothing else.
 *
 * <p>Handlers, in pipeline order, all added by {@link org.sperli.transport.PeerPipeline}: {@code connected} (notes
 * that TCP connected, then removes itself), {@code tls} (SslHandler, TLS 1.3 only, records gathered on the heap by
 * {@link org.sperli.transport.HeapCumulator}), {@code setup-errors} ({@link org.sperli.transport.SetupErrors}: closes
 * on an error before the peer is known, removed once it is), {@code chunks} (ChunkedWriteHandler: hands large payloads
 * to TLS in {@link org.sperli.transport.PayloadChunks} while the connection is writable), {@code idle}
 * (IdleStateHandler; before the decoder, so that every byte from the peer counts as life, a frame still arriving
 * too), {@code frame-decoder} ({@link org.sperli.transport.FrameDecoder}: acts on
 * {@link org.sperli.protocol.frame.HeaderCheck} verdicts), {@code frame-encoder}, {@code flow}
 * ({@link org.sperli.transport.FlowControl}: reading paused while too much is queued), {@code hello-gate} (removes
 * itself after HELLO), {@code liveness} ({@link org.sperli.transport.LivenessHandler}: heartbeats, sent by the
 * rank's one {@link org.sperli.transport.Heartbeats} timer, and silence), {@code peer} (hands frames to the runtime).
 *
 * <p>A small frame may go out beside these handlers: {@link org.sperli.transport.DirectRecords} encrypts it with the
 * connection's engine and writes it to the socket from the sending thread, where that cannot change the order of the
 * connection's records and frames. On the way in, {@link org.sperli.transport.PeerSocketChannel} offers what a socket
 * read brought to {@link org.sperli.transport.DirectReads}, which decrypts the whole small records with the same
 * engine and hands their plaintext on from the TLS handler's place, so the idle handler and everything behind it see
 * the same bytes; the TLS handler keeps everything it must see whole.
 *
 * <p>{@link org.sperli.transport.Connections} owns the event loop and sockets; the runtime sees a connection only as
 * a {@link org.sperli.transport.PeerChannel}, and runs the loop while it waits ({@link org.sperli.transport.Progress},
 * {@link org.sperli.transport.DrivenLoop}). Protocol decisions live in {@code org.sperli.protocol}; this package
 * only moves bytes and applies verdicts.
 */
package org.sperli.transport;
