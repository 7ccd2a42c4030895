package org.sperli.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.nio.channels.SocketChannel;

/**
 * The socket of one connection, dialed or accepted: Netty's NIO channel, whose reads offer their small TLS records to
 * {@link DirectReads} before the pipeline gets the rest.
 */
public final class PeerSocketChannel extends NioSocketChannel {
    private final DirectReads reads = new DirectReads(this);

    /** A socket to dial with (Netty's bootstrap makes it). */
    public PeerSocketChannel() {
    }

    /** An accepted {@code socket} of the listening {@code parent}. */
    PeerSocketChannel(Channel parent, SocketChannel socket) {
        super(parent, socket);
    }

    /**
     * Reads as Netty does; then the small records at the start of what was read are taken, and only the rest, if any,
     * goes to the pipeline (0 read: nothing to pass on; the read loop ends as on an empty read). Bytes taken still
     * count for the size of the next read's buffer: counted as none, it would shrink below one small record, whose
     * halves would then take the pipeline's way.
     */
    @Override
    protected int doReadBytes(ByteBuf byteBuf) throws Exception {
        int read = super.doReadBytes(byteBuf);
        int left = reads.take(byteBuf, read);
        if (left == 0 && read > 0) {
            unsafe().recvBufAllocHandle().lastBytesRead(read);
        }
        return left;
    }
}
