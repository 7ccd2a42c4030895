package org.sperli.transport;

import io.netty.channel.ChannelInboundHandlerAdapter;

/** A handler in one peer's pipeline that tells the runtime, through {@link PeerEvents}, what that peer did. */
abstract class PeerEventHandler extends ChannelInboundHandlerAdapter {
    final int peer;
    final PeerEvents events;

    PeerEventHandler(int peer, PeerEvents events) {
        this.peer = peer;
        this.events = events;
    }
}
