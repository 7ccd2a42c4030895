package org.sperli.runtime;

import io.netty.channel.ChannelFuture;
import java.time.Duration;
import org.sperli.Request;

/** A send in flight: done when TLS has taken the bytes, so the caller's buffer may be reused. */
final class SendRequest implements Request<Void> {
    final int dest;
    final ChannelFuture future;
    private final RankRuntime runtime;
    /** An isend whose completion the caller has not seen yet; guarded by the runtime's lock. */
    boolean open;

    SendRequest(RankRuntime runtime, int dest, ChannelFuture future) {
        this.runtime = runtime;
        this.dest = dest;
        this.future = future;
    }

    @Override
    public Void await() {
        runtime.awaitSend(this, -1);
        return null;
    }

    @Override
    public Void await(Duration timeout) {
        runtime.awaitSend(this, timeout.toNanos());
        return null;
    }

    @Override
    public boolean test() {
        return runtime.testSend(this);
    }
}
