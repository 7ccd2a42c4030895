package org.sperli.transport;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.AdaptiveByteBufAllocator;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.nio.NioIoHandler;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.sperli.jvm.Clock;

/**
 * The sockets of one rank: its event loop, its listening socket and its dialed connections. TCP_NODELAY on every
 * connection; each connection's pipeline comes from {@link PeerPipeline}.
 *
 * <p>A failed write ends only the connection's output ({@code AUTO_CLOSE} off); the connection closes when reading
 * reaches its end (protocol 7.5). A peer that sent ABORT and closed answers a frame that arrives after that with a TCP
 * reset, and the next write here fails while its ABORT still waits in the socket: Netty's default would close the
 * channel unread, and this rank would report the close (H1613) instead of the job's verdict.
 */
public final class Connections implements AutoCloseable {
    private static final int CONNECT_TIMEOUT_MS = 1000;
    /**
     * Heap buffers behind the socket reads: TLS decrypts and encrypts byte arrays (see {@link HeapCumulator}), and
     * the frames it yields are copied into the caller's arrays. Socket reads still use direct buffers.
     */
    private static final ByteBufAllocator ALLOCATOR = new AdaptiveByteBufAllocator(false);
    /**
     * The options of every connection, accepted or dialed, in one place (Netty's server and client bootstraps set
     * them through different methods): no Nagle delay, {@link #ALLOCATOR}, and no close when a write fails, so that
     * what the peer sent before a reset is still read (see protocol section 7.5).
     */
    private static final Map<ChannelOption<Object>, Object> CONNECTION_OPTIONS = Map.of(
            option(ChannelOption.TCP_NODELAY), true,
            option(ChannelOption.ALLOCATOR), ALLOCATOR,
            option(ChannelOption.AUTO_CLOSE), false);

    /** One loop for every connection of the rank, run by the threads that wait on it (see {@link DrivenLoop}). */
    private final DrivenLoop loop;
    /** The one timer of every connection's heartbeats (see {@link Heartbeats}). */
    private final Heartbeats heartbeats;
    /** The data arrays that large COLLECTIVE frames of every connection take and a fold gives back. */
    private final RecycledArrays arrays = new RecycledArrays();
    private Channel server;

    /**
     * Connections on {@code clock} whose waiting threads poll for {@code spinNanos} before they sleep (see
     * {@link WaitSpin}).
     */
    public Connections(long spinNanos, Clock clock) {
        this.loop = new DrivenLoop(NioIoHandler.newFactory(), "sperli-io", spinNanos, clock);
        this.heartbeats = new Heartbeats(loop, clock);
    }

    /**
     * Listens at {@code port} on the wildcard IPv4 address; every accepted connection gets {@code init}. Returns null,
     * or why it cannot listen.
     */
    public synchronized String listen(int port, ChannelInitializer<Channel> init) {
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(loop)
                .channel(PeerServerSocketChannel.class)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childHandler(init);
        CONNECTION_OPTIONS.forEach((option, value) -> bootstrap.childOption(option, value));
        ChannelFuture bound = bootstrap.bind(new InetSocketAddress("0.0.0.0", port)).awaitUninterruptibly();
        if (!bound.isSuccess()) {
            return bound.cause().getMessage();
        }
        server = bound.channel();
        return null;
    }

    /** One TCP connect to {@code address} with {@code init} as the connection's pipeline; true when it connected. */
    public boolean dial(InetSocketAddress address, ChannelInitializer<Channel> init) {
        Bootstrap bootstrap = new Bootstrap()
                .group(loop)
                .channel(PeerSocketChannel.class)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, CONNECT_TIMEOUT_MS)
                .handler(init);
        CONNECTION_OPTIONS.forEach((option, value) -> bootstrap.option(option, value));
        return bootstrap.connect(address).awaitUninterruptibly().isSuccess();
    }

    /** Closes the listening socket; established connections stay. */
    public synchronized void stopListening() {
        if (server != null) {
            server.close();
            server = null;
        }
    }

    /** How a thread that waits for these connections runs them. */
    public Progress progress() {
        return loop;
    }

    /** The heartbeats of these connections, which each connection joins when its frames begin. */
    public Heartbeats heartbeats() {
        return heartbeats;
    }

    /** The data arrays of large COLLECTIVE frames, shared by these connections (see {@link RecycledArrays}). */
    public RecycledArrays recycledArrays() {
        return arrays;
    }

    /** Stops listening and ends the event loop (bounded: a few seconds at most). */
    @Override
    public void close() {
        stopListening();
        loop.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }

    /** {@code option} as a key of {@link #CONNECTION_OPTIONS}, whose values are checked there by hand. */
    @SuppressWarnings("unchecked")
    private static ChannelOption<Object> option(ChannelOption<?> option) {
        return (ChannelOption<Object>) option;
    }
}
