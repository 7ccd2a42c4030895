package org.sperli.transport;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import java.util.function.Supplier;

/**
 * Gives the idle events their meaning: writer idle for 1000 ms sends a HEARTBEAT; reader idle for the silence limit
 * means the peer is lost, unless reading is paused because this rank's queues are full (then the silence is ours).
 */
public final class LivenessHandler extends ChannelDuplexHandler {
    private final int peer;
    private final PeerEvents events;
    private final Supplier<OutboundFrame> heartbeat;

    public LivenessHandler(int peer, PeerEvents events, Supplier<OutboundFrame> heartbeat) {
        this.peer = peer;
        this.events = events;
        this.heartbeat = heartbeat;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof IdleStateEvent idle) {
            if (idle.state() == IdleState.WRITER_IDLE) {
                ctx.writeAndFlush(heartbeat.get());
            } else if (idle.state() == IdleState.READER_IDLE && ctx.channel().config().isAutoRead()) {
                events.onSilent(peer);
            }
            return;
        }
        super.userEventTriggered(ctx, evt);
    }
}
