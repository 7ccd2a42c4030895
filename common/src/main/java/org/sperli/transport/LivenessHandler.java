package org.sperli.transport;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.sperli.protocol.Limits;

/**
 * A connection's liveness, both ways. Sending: the time of its last write, and a HEARTBEAT when {@link Heartbeats}
 * finds it idle for the heartbeat interval. Receiving: reader idle for the silence limit (the idle handler
 * before the decoder, so that every byte counts) means the peer is lost, unless reading is paused because this rank's
 * queues are full (then the silence is ours).
 *
 * <p>Every frame the rank sends passes {@link #write} or is told by {@link #wrote}: the runtime writes through the
 * channel, which starts at the pipeline's tail, behind this handler, or beside the pipeline ({@link DirectRecords});
 * the heartbeat itself starts below it and is counted here.
 */
public final class LivenessHandler extends ChannelDuplexHandler {
    private final long heartbeatAfterNanos;
    private final int peer;
    private final PeerEvents events;
    private final Supplier<OutboundFrame> heartbeat;
    private final Heartbeats heartbeats;
    private ChannelHandlerContext ctx;
    private long lastWriteNanos;

    /**
     * The liveness of the connection to {@code peer} in a job whose silence limit is {@code silenceMs}: a heartbeat
     * after {@link Limits#heartbeatIntervalMs} of it without a send (protocol 7.5).
     */
    public LivenessHandler(int peer, long silenceMs, PeerEvents events, Supplier<OutboundFrame> heartbeat,
                           Heartbeats heartbeats) {
        this.heartbeatAfterNanos = TimeUnit.MILLISECONDS.toNanos(Limits.heartbeatIntervalMs(silenceMs));
        this.peer = peer;
        this.events = events;
        this.heartbeat = heartbeat;
        this.heartbeats = heartbeats;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        lastWriteNanos = now();
        heartbeats.add(this);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        heartbeats.remove(this);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        heartbeats.remove(this);
        super.channelInactive(ctx);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        lastWriteNanos = now();
        ctx.write(msg, promise);
    }

    /** A frame went out beside the pipeline ({@link DirectRecords}); on the event loop. */
    void wrote() {
        lastWriteNanos = now();
    }

    /** Sends a HEARTBEAT if nothing was written for the heartbeat interval; on the event loop. */
    void beatIfIdle() {
        long now = now();
        if (now - lastWriteNanos >= heartbeatAfterNanos && ctx.channel().isActive()) {
            lastWriteNanos = now;
            ctx.writeAndFlush(heartbeat.get());
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof IdleStateEvent idle) {
            if (idle.state() == IdleState.READER_IDLE && ctx.channel().config().isAutoRead()) {
                events.onSilent(peer);
            }
            return;
        }
        super.userEventTriggered(ctx, evt);
    }

    /** The loop's time (its ticker: the rank's clock, read once a pass), which the idle handler's silence reads. */
    private long now() {
        return ctx.executor().ticker().nanoTime();
    }
}
