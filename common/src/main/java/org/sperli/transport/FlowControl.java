package org.sperli.transport;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelConfig;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Bounds the memory of one connection's frames that arrived but were not yet asked for: above
 * {@link #PAUSE_ABOVE_BYTES} queued bytes (payloads and the frames' objects) this handler stops reading, so that TCP
 * slows the sender down; below {@link #RESUME_BELOW_BYTES} it reads again. The queue's owner reports what it
 * {@link #queued} and {@link #taken}.
 *
 * <p>A connection the program waits on ({@link #wanted}: a posted receive, or a thread blocked until a collective or
 * checkpoint frame arrives) is read even above the bound: the awaited frame can only come after the queued ones, and
 * pausing would deadlock a program that takes its messages out of order (MPI's eager buffering does the same).
 *
 * <p>Thread safety: {@code queued} runs on the event loop, the others on any thread. After each pause the wanted
 * flag is read again, so a wish made while the event loop paused is never lost.
 */
public final class FlowControl extends ChannelInboundHandlerAdapter {
    /** Queued bytes above which reading stops. */
    public static final long PAUSE_ABOVE_BYTES = 64L * 1024 * 1024;
    /** Queued bytes below which reading resumes. */
    public static final long RESUME_BELOW_BYTES = 16L * 1024 * 1024;

    private final AtomicLong queuedBytes = new AtomicLong();
    private volatile boolean wanted;
    private volatile boolean held;
    private volatile ChannelConfig config;

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        config = ctx.channel().config();
    }

    /** A frame that costs {@code bytes} of heap (its payload and its objects) was queued and not asked for. */
    public void queued(long bytes) {
        if (queuedBytes.addAndGet(bytes) > PAUSE_ABOVE_BYTES && !wanted && !held) {
            config.setAutoRead(false);
            if (wanted || held) {
                config.setAutoRead(true);
            }
        }
    }

    /** A queued frame that cost {@code bytes} was taken (or dropped). */
    public void taken(long bytes) {
        if (queuedBytes.addAndGet(-bytes) < RESUME_BELOW_BYTES) {
            read();
        }
    }

    /** Whether the program waits for a frame from this connection that is not queued. */
    public void wanted(boolean waiting) {
        wanted = waiting;
        if (waiting) {
            read();
        }
    }

    /** Reads from now on whatever is queued: the rank is leaving and drains the connection until the peer closes. */
    public void holdOpen() {
        held = true;
        read();
    }

    /** Bytes of heap that queued frames take now, as their owner counted them. */
    public long queuedBytes() {
        return queuedBytes.get();
    }

    /** Whether reading is paused. */
    public boolean paused() {
        ChannelConfig c = config;
        return c != null && !c.isAutoRead();
    }

    private void read() {
        ChannelConfig c = config;
        if (c != null && !c.isAutoRead()) {
            c.setAutoRead(true);
        }
    }
}
