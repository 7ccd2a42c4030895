package org.sperli.transport;

import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * The end of a connection's pipeline until its peer is known: an error there (a stranger's plaintext, a refused
 * handshake, a reset) closes the connection and goes no further. The handshake's outcome already says in one line
 * what happened; without this handler Netty would log the same error again with its stack trace, once per probe. It
 * is removed when the frame handlers are added ({@link PeerPipeline#established}), so that an error on an
 * established connection reaches the runtime as a lost peer.
 */
@Sharable
final class SetupErrors extends ChannelInboundHandlerAdapter {
    static final SetupErrors INSTANCE = new SetupErrors();
    static final String NAME = "setup-errors";

    private SetupErrors() {
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }
}
