package org.sperli.transport;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.DecoderException;
import org.sperli.ErrorCode;
import org.sperli.SperliException;

/** The last handler: hands frames, refusals and the close of the connection to the runtime. */
public final class PeerHandler extends PeerEventHandler {
    public PeerHandler(int peer, PeerEvents events) {
        super(peer, events);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        events.onFrame(peer, (Frame) msg);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        events.onClosed(peer);
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        events.onRefused(peer, asRefusal(cause));
    }

    /** The H-coded refusal inside a pipeline exception; anything else on an established connection is a lost peer. */
    static SperliException asRefusal(Throwable cause) {
        Throwable t = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
        if (t instanceof SperliException e) {
            return e;
        }
        return new SperliException(ErrorCode.H1613, "connection failed: " + t);
    }
}
