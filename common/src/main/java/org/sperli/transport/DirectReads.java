package org.sperli.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.ssl.SslCloseCompletionEvent;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.Promise;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.ByteBuffer;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;

/**
 * The small TLS records of one socket read decrypted by the thread that read them and handed to the frame decoder,
 * beside the TLS handler: the receiving half of {@link DirectRecords}. On one core a small message's latency is its
 * CPU, and the TLS handler's way (its cumulation, a pooled buffer for each record's plaintext, the decoder's
 * bookkeeping around the engine) cost about 0.5 us of a message's 7.5 here (docs/performance.md, section 6.7).
 *
 * <p>Only where nothing can change: the handshake is done and TLS's inbound side open, the TLS handler holds no bytes
 * of an unfinished record (it gets everything from its first byte on), the channel reads on its own (a paused
 * connection is read as before), and the record is whole, protected ({@code application_data} outside) and small. The
 * engine is the connection's own, so it decrypts every record in order whichever way the record took. The plaintext
 * goes on from the TLS handler's place in the pipeline, as the handler would send it: the frame decoder, the silence
 * timer and every handler behind them see the same bytes. A large record (a part of a large frame) and everything after
 * it take the handler's way, whose pooled buffers the frame decoder gathers from.
 *
 * <p>What the handler would do besides decrypting is done here too: a KeyUpdate that asks for ours is answered by a
 * flush through the handler (it wraps the engine's reply), a peer's close_notify completes the handler's close future
 * with its event, and a record that does not decrypt makes the handler send the engine's alert before the read fails
 * with the engine's exception, which ends the connection as a failed read does.
 *
 * <p>Record header (RFC 8446, section 5.1), all that is read here before the engine:
 * <pre>
 * offset  size  field
 * 0       1     outer content type: 23, application_data, for every protected record
 * 1       2     legacy version
 * 3       2     length of the protected record that follows, big-endian
 * </pre>
 */
final class DirectReads {
    static final int TYPE_OFFSET = 0;
    static final int LENGTH_OFFSET = 3;
    static final int HEADER_BYTES = LENGTH_OFFSET + 2;
    static final int APPLICATION_DATA = 23;
    /**
     * The longest protected record taken here: a small frame, its header and the AEAD's tag fit with room to spare. A
     * longer one is part of a large message, whose plaintext the handler's pooled buffers carry without a fresh array
     * per record.
     */
    static final int SMALL_RECORD_BYTES = 4096;
    /** {@code ByteToMessageDecoder.actualReadableBytes()}, protected in Netty: the TLS handler's unfinished bytes. */
    private static final MethodHandle HELD_BYTES = heldBytes();
    /** Per thread: the records of one read, copied to the heap for the engine (see {@link HeapCumulator} for why). */
    private static final ThreadLocal<byte[]> SCRATCH = new ThreadLocal<>();

    private final Channel channel;
    private ChannelHandlerContext tls;

    DirectReads(Channel channel) {
        this.channel = channel;
    }

    /**
     * Takes the whole small records at the start of {@code in}, which a socket read just filled with {@code read}
     * bytes, and passes their plaintext on; returns what the caller reports as read: 0 when nothing is left for the
     * TLS handler, else {@code read} with {@code in}'s reader index past what was taken.
     */
    int take(ByteBuf in, int read) throws SSLException {
        if (read <= 0 || HELD_BYTES == null || !ready()) {
            return read;
        }
        int start = in.readerIndex();
        int end = start;
        int plaintext = 0;
        while (in.writerIndex() - end >= HEADER_BYTES && in.getUnsignedByte(end + TYPE_OFFSET) == APPLICATION_DATA) {
            int length = in.getUnsignedShort(end + LENGTH_OFFSET);
            if (length > SMALL_RECORD_BYTES || in.writerIndex() - end - HEADER_BYTES < length) {
                break;
            }
            end += HEADER_BYTES + length;
            plaintext += length;
        }
        if (end == start) {
            return read;
        }
        int taken;
        try {
            taken = unwrap(in, start, end - start, plaintext);
        } catch (SSLException e) {
            // Nothing after a record that does not decrypt may be read: the connection ends with the failed read.
            in.readerIndex(in.writerIndex());
            throw e;
        }
        in.readerIndex(start + taken);
        return in.isReadable() ? read : 0;
    }

    /**
     * Decrypts the {@code bytes} of whole records at {@code from} and passes their plaintext on; returns how many bytes
     * the engine took (fewer than given only where it stopped: the rest is the handler's).
     */
    private int unwrap(ByteBuf in, int from, int bytes, int plaintext) throws SSLException {
        SSLEngine engine = ((SslHandler) tls.handler()).engine();
        ByteBuffer src = scratch(bytes);
        in.getBytes(from, src.array(), 0, bytes);
        ByteBuf plain = Unpooled.wrappedBuffer(new byte[plaintext]).clear();
        boolean reply = false;
        boolean closed = false;
        try {
            while (src.hasRemaining()) {
                ByteBuffer dst = plain.internalNioBuffer(plain.writerIndex(), plain.writableBytes());
                SSLEngineResult result = engine.unwrap(src, dst);
                plain.writerIndex(plain.writerIndex() + result.bytesProduced());
                SSLEngineResult.HandshakeStatus status = result.getHandshakeStatus();
                if (status == SSLEngineResult.HandshakeStatus.NEED_TASK) {
                    for (Runnable task = engine.getDelegatedTask(); task != null; task = engine.getDelegatedTask()) {
                        task.run();
                    }
                    status = engine.getHandshakeStatus();
                }
                reply |= status == SSLEngineResult.HandshakeStatus.NEED_WRAP;
                if (result.getStatus() == SSLEngineResult.Status.CLOSED) {
                    closed = true;
                    break;
                }
                if (result.getStatus() != SSLEngineResult.Status.OK || result.bytesConsumed() == 0) {
                    break;
                }
            }
        } catch (SSLException e) {
            // What the records before it held was authentic and goes on, as from the handler; the engine has its
            // alert ready, which the handler wraps and sends, as after a failed unwrap of its own.
            passOn(plain);
            channel.flush();
            throw e;
        }
        passOn(plain);
        if (reply) {
            channel.flush();
        }
        if (closed) {
            peerClosed();
        }
        return src.position();
    }

    private void passOn(ByteBuf plain) {
        if (plain.isReadable()) {
            tls.fireChannelRead(plain);
        } else {
            plain.release();
        }
    }

    /** What the handler does when the peer's close_notify arrives: its close future succeeds, with its event. */
    @SuppressWarnings("unchecked")
    private void peerClosed() {
        if (((Promise<Channel>) ((SslHandler) tls.handler()).sslCloseFuture()).trySuccess(channel)) {
            tls.fireUserEventTriggered(SslCloseCompletionEvent.SUCCESS);
        }
    }

    /** Whether records may be taken here now: see the class documentation. */
    boolean ready() {
        if (tls == null || tls.isRemoved()) {
            tls = channel.pipeline().context(SslHandler.class);
            if (tls == null) {
                return false;
            }
        }
        SslHandler ssl = (SslHandler) tls.handler();
        return ssl.handshakeFuture().isSuccess() && !ssl.engine().isInboundDone() && channel.config().isAutoRead()
                && held(ssl) == 0;
    }

    private static int held(SslHandler ssl) {
        try {
            return (int) HELD_BYTES.invokeExact((ByteToMessageDecoder) ssl);
        } catch (Throwable e) {
            throw new IllegalStateException("cannot ask the TLS handler what it holds", e);
        }
    }

    private static ByteBuffer scratch(int bytes) {
        byte[] b = SCRATCH.get();
        if (b == null || b.length < bytes) {
            b = new byte[Math.max(bytes, 2 * PeerPipeline.RECORD_PLAINTEXT_BYTES)];
            SCRATCH.set(b);
        }
        return ByteBuffer.wrap(b, 0, bytes);
    }

    private static MethodHandle heldBytes() {
        try {
            return MethodHandles.privateLookupIn(ByteToMessageDecoder.class, MethodHandles.lookup()).findVirtual(
                    ByteToMessageDecoder.class, "actualReadableBytes", MethodType.methodType(int.class));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }
}
