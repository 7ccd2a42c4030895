package org.sperli.transport;

import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.internal.SocketUtils;
import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.util.List;

/** The listening socket of a rank: Netty's, whose accepted connections are {@link PeerSocketChannel}s. */
public final class PeerServerSocketChannel extends NioServerSocketChannel {
    /** Accepts one connection, if one waits, as Netty's own channel does. */
    @Override
    protected int doReadMessages(List<Object> buf) throws Exception {
        SocketChannel accepted = SocketUtils.accept(javaChannel());
        if (accepted == null) {
            return 0;
        }
        try {
            buf.add(new PeerSocketChannel(this, accepted));
            return 1;
        } catch (RuntimeException e) {
            // A socket that cannot be set up is closed: its dialer sees the close and dials again.
            try {
                accepted.close();
            } catch (IOException ignored) {
                // closing is all that is left to try
            }
            return 0;
        }
    }
}
