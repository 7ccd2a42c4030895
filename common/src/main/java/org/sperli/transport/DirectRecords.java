package org.sperli.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.nio.AbstractNioChannel;
import io.netty.handler.ssl.SslHandler;
import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.ByteBuffer;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SocketChannel;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;
import org.sperli.protocol.frame.FrameType;

/**
 * A small frame encrypted and written to the socket by the thread that sends it, beside the pipeline: on one core a
 * small message's latency is its CPU, and the pipeline's way (nine handlers for the write and again for the flush,
 * the frame encoder's buffer, TLS's queue and promises, the outbound buffer and the copy of each record into a direct
 * buffer) cost about 1.2 us of a message's 9 here (docs/performance.md, section 6.6).
 *
 * <p>Only where the order of the connection's records and frames cannot change: the thread drives the connection's
 * loop (so nothing else touches the channel meanwhile), no frame written through the pipeline is still on its way
 * (not even queued in pieces behind a large one), the socket has nothing waiting in Netty's outbound buffer, the
 * handshake is done and TLS still open, and the frame with its header fits one TLS record. The engine is the
 * connection's own (its records are numbered: whatever it wraps is written before anything it wraps later). What the
 * socket does not take at once goes to Netty's outbound buffer below TLS, and everything after it then takes the
 * pipeline until that is written; what the engine did not take in this wrap (never seen: it would be a KeyUpdate's
 * record before the data) is written through the pipeline right behind. Otherwise {@link #send} returns null and the
 * caller writes through the pipeline.
 */
final class DirectRecords {
    /** {@code AbstractNioChannel.javaChannel()}, protected in Netty: the socket this class writes; null if absent. */
    private static final MethodHandle JAVA_CHANNEL = javaChannel();
    /** Per thread: records are wrapped into it (the engine wants a whole packet's room per wrap, twice for a rest). */
    private static final ThreadLocal<ByteBuffer> SCRATCH = new ThreadLocal<>();
    private static final int WRAPS = 4;

    private final Channel channel;
    /** Frames written through the pipeline whose write has not completed. */
    private final AtomicInteger inPipeline = new AtomicInteger();
    /** The frame's header and payload parts, for the engine to gather into one record. */
    private final ByteBuffer[] sources = new ByteBuffer[3];
    /** Counts a write through the pipeline out again once it completed. */
    private final ChannelFutureListener leftPipeline = f -> leftPipeline();
    private ChannelHandlerContext tls;
    private LivenessHandler liveness;

    DirectRecords(Channel channel) {
        this.channel = channel;
    }

    /** Writes and flushes {@code msg} through the whole pipeline, counted as on its way until the write completed. */
    ChannelFuture throughPipeline(Object msg) {
        enteredPipeline();
        ChannelFuture written = channel.writeAndFlush(msg);
        written.addListener(leftPipeline);
        return written;
    }

    /** A frame goes through the pipeline; {@link #leftPipeline} once its write completed. */
    void enteredPipeline() {
        inPipeline.incrementAndGet();
    }

    void leftPipeline() {
        inPipeline.decrementAndGet();
    }

    /**
     * Encrypts and writes {@code frame} now, as the loop's driver, and returns its write; null, having done nothing,
     * where the pipeline must write it.
     */
    ChannelFuture send(OutboundFrame frame) {
        if (JAVA_CHANNEL == null || !(channel instanceof AbstractNioChannel) || !keepsOrder(frame)) {
            return null;
        }
        ByteBuf payload = frame.payload();
        SSLEngine engine = ((SslHandler) tls.handler()).engine();
        byte[] header;
        try {
            header = frame.header().toBytes();
        } catch (IllegalArgumentException refused) {
            return null;
        }
        int n = sources(header, payload);
        ByteBuffer out = scratch(engine);
        boolean wrapped;
        try {
            wrapped = wrap(engine, n, out);
        } catch (SSLException e) {
            wrapped = false;
        }
        if (!wrapped) {
            Arrays.fill(sources, null);
            return null;
        }
        liveness.wrote();
        out.flip();
        ChannelFuture written = write(out);
        if (remaining(n)) {
            // The engine wrote a record of its own first and did not take all of the frame: the rest right behind.
            ByteBuf rest = Unpooled.buffer();
            for (int i = 0; i < n; i++) {
                rest.writeBytes(sources[i]);
            }
            written = throughPipeline(rest);
        }
        Arrays.fill(sources, null);
        payload.release();
        return written;
    }

    /**
     * Whether {@code frame} may go out beside the pipeline now without changing the order of what the connection
     * sends: see the class documentation.
     */
    boolean keepsOrder(OutboundFrame frame) {
        ByteBuf payload = frame.payload();
        return inPipeline.get() == 0 && frame.header().frameType() != FrameType.HELLO
                && payload.readableBytes() <= FrameEncoder.ONE_BUFFER_PAYLOAD_BYTES && payload.nioBufferCount() <= 2
                && channel.isActive() && nothingQueued() && findHandlers()
                && !((SslHandler) tls.handler()).engine().isOutboundDone();
    }

    /**
     * Wraps the {@code n} sources into {@code out}; false if the engine took and made nothing (the pipeline then writes
     * the frame, and fails it as before if TLS is closed).
     */
    private boolean wrap(SSLEngine engine, int n, ByteBuffer out) throws SSLException {
        boolean any = false;
        int room = engine.getSession().getPacketBufferSize();
        for (int i = 0; i < WRAPS && remaining(n) && out.remaining() >= room; i++) {
            SSLEngineResult result;
            try {
                result = engine.wrap(sources, 0, n, out);
            } catch (SSLException e) {
                if (!any) {
                    throw e;
                }
                // What was made goes out; the rest takes the pipeline, which reports the engine's failure.
                break;
            }
            any |= result.bytesConsumed() > 0 || result.bytesProduced() > 0;
            if (result.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NEED_TASK) {
                for (Runnable task = engine.getDelegatedTask(); task != null; task = engine.getDelegatedTask()) {
                    task.run();
                }
            }
            if (result.getStatus() != SSLEngineResult.Status.OK) {
                break;
            }
        }
        return any;
    }

    /** Writes {@code out} to the socket; what it does not take goes to Netty's outbound buffer, below TLS. */
    private ChannelFuture write(ByteBuffer out) {
        try {
            // Exact types let the JIT inline the handle; a plain invoke went through an adapter (seen in a profile).
            SelectableChannel selectable = (SelectableChannel) JAVA_CHANNEL.invokeExact((AbstractNioChannel) channel);
            SocketChannel socket = (SocketChannel) selectable;
            while (out.hasRemaining() && socket.write(out) > 0) {
                // the socket took some: offer it the rest
            }
        } catch (IOException e) {
            // Netty's own write of the rest meets the same error and ends the connection's output as it always does.
        } catch (Throwable e) {
            throw new IllegalStateException("cannot write to the socket of " + channel, e);
        }
        if (!out.hasRemaining()) {
            return channel.newSucceededFuture();
        }
        ByteBuf rest = Unpooled.directBuffer(out.remaining()).writeBytes(out);
        return tls.writeAndFlush(rest);
    }

    private boolean nothingQueued() {
        ChannelOutboundBuffer queued = channel.unsafe().outboundBuffer();
        return queued != null && queued.totalPendingWriteBytes() == 0;
    }

    /** The TLS handler's context and the liveness handler, looked up once; false before the handshake is done. */
    private boolean findHandlers() {
        if (tls == null || tls.isRemoved()) {
            tls = channel.pipeline().context(SslHandler.class);
            liveness = channel.pipeline().get(LivenessHandler.class);
        }
        return tls != null && liveness != null && ((SslHandler) tls.handler()).handshakeFuture().isSuccess();
    }

    private int sources(byte[] header, ByteBuf payload) {
        sources[0] = ByteBuffer.wrap(header);
        if (!payload.isReadable()) {
            return 1;
        }
        if (payload.nioBufferCount() == 1) {
            sources[1] = payload.nioBuffer();
            return 2;
        }
        int n = 1;
        for (ByteBuffer part : payload.nioBuffers()) {
            sources[n++] = part;
        }
        return n;
    }

    private boolean remaining(int n) {
        for (int i = 0; i < n; i++) {
            if (sources[i].hasRemaining()) {
                return true;
            }
        }
        return false;
    }

    private static ByteBuffer scratch(SSLEngine engine) {
        int size = 2 * engine.getSession().getPacketBufferSize();
        ByteBuffer b = SCRATCH.get();
        if (b == null || b.capacity() < size) {
            b = ByteBuffer.allocateDirect(size);
            SCRATCH.set(b);
        }
        b.clear();
        return b;
    }

    private static MethodHandle javaChannel() {
        try {
            return MethodHandles.privateLookupIn(AbstractNioChannel.class, MethodHandles.lookup()).findVirtual(
                    AbstractNioChannel.class, "javaChannel", MethodType.methodType(SelectableChannel.class));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }
}
