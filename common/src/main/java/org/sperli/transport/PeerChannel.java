package org.sperli.transport;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * One peer's established connection as the runtime sees it: frames out, the connection's {@link FlowControl}, and
 * its end. Nothing else of Netty's channel is reachable through it.
 */
public final class PeerChannel {
    private final Channel channel;
    private final FlowControl flow;
    private final DirectRecords direct;

    PeerChannel(Channel channel, FlowControl flow) {
        this.channel = channel;
        this.flow = flow;
        this.direct = new DirectRecords(channel);
    }

    /**
     * Queues {@code frame} and flushes; the future completes once TLS has consumed the payload. Where the calling
     * thread can drive the connection's loop now, it encrypts and writes itself: a small frame beside the pipeline
     * where that keeps the order ({@link DirectRecords}), any other through it; otherwise the loop's driver does.
     */
    public ChannelFuture write(OutboundFrame frame) {
        if (channel.eventLoop() instanceof DrivenLoop loop) {
            ChannelFuture written = loop.callAsDriver(() -> {
                ChannelFuture sent = direct.send(frame);
                return sent != null ? sent : direct.throughPipeline(frame);
            });
            if (written != null) {
                return written;
            }
        }
        return direct.throughPipeline(frame);
    }

    public FlowControl flow() {
        return flow;
    }

    public boolean isActive() {
        return channel.isActive();
    }

    /**
     * Runs {@code task} on this connection's event loop after {@code delayMs}, closed or not: the rank's event loop
     * runs until the rank ends, and a timer there needs no thread of its own.
     */
    public void schedule(Runnable task, long delayMs) {
        try {
            channel.eventLoop().schedule(task, delayMs, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException shuttingDown) {
            // The rank is ending its event loop: the task cannot wait, so it runs now.
            task.run();
        }
    }

    /** Starts closing (close_notify, then TCP close); returns at once. */
    public ChannelFuture close() {
        return channel.close();
    }

    /** Waits up to {@code timeoutNs} until the connection is closed, by either side. */
    public void awaitClosed(long timeoutNs) {
        channel.closeFuture().awaitUninterruptibly(Math.max(0, timeoutNs), TimeUnit.NANOSECONDS);
    }
}
