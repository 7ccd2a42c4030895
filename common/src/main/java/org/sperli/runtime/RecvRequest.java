package org.sperli.runtime;

import java.time.Duration;
import org.sperli.Request;
import org.sperli.transport.Frame;

/** A posted receive. The matched frame is copied into the caller's array on the caller's thread, not the event loop. */
final class RecvRequest implements Request<byte[]> {
    final int source;
    final long tag;
    private final RankRuntime runtime;
    /** Set under the runtime's lock when a DATA frame matches. */
    Frame matched;
    /** An irecv not yet seen complete; guarded by the runtime's lock. */
    boolean open;
    private byte[] result;

    RecvRequest(RankRuntime runtime, int source, long tag) {
        this.runtime = runtime;
        this.source = source;
        this.tag = tag;
    }

    @Override
    public byte[] await() {
        return runtime.awaitRecv(this, -1);
    }

    @Override
    public byte[] await(Duration timeout) {
        return runtime.awaitRecv(this, timeout.toNanos());
    }

    @Override
    public boolean test() {
        return runtime.testRecv(this);
    }

    /** Copies and releases the matched frame once; later calls give the same array. Caller holds the lock. */
    byte[] take() {
        if (result == null) {
            Frame f = matched;
            io.netty.buffer.ByteBuf p = f.payload();
            byte[] out;
            if (p.hasArray() && p.arrayOffset() == 0 && p.readerIndex() == 0 && p.array().length == p.readableBytes()
                    && p.refCnt() == 1) {
                // A large payload gathered into its own array by the decoder: hand it over, no copy.
                out = p.array();
            } else {
                out = new byte[p.readableBytes()];
                p.getBytes(p.readerIndex(), out);
            }
            f.release();
            matched = null;
            result = out;
        }
        return result;
    }

    boolean done() {
        return matched != null || result != null;
    }
}
