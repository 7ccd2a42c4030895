package org.sperli.transport;

import io.netty.channel.ChannelHandlerContext;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.protocol.frame.FrameType;

/**
 * Lets nothing past until the peer's HELLO has been checked, then removes itself, so that a second HELLO reaches the
 * runtime's frame handling, which refuses it. The first-frame rule comes right after the header checks.
 */
public final class HelloGate extends PeerEventHandler {
    public HelloGate(int peer, PeerEvents events) {
        super(peer, events);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        Frame frame = (Frame) msg;
        try {
            if (frame.header().frameType() != FrameType.HELLO) {
                throw new SperliException(ErrorCode.H1614, "first frame from rank " + peer + " is "
                        + frame.header().frameType() + ", expected HELLO");
            }
            events.onHello(peer, frame);
            ctx.pipeline().remove(this);
        } catch (SperliException e) {
            events.onRefused(peer, e);
        } finally {
            frame.release();
        }
    }
}
