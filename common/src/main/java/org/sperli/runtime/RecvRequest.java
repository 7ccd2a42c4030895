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
            byte[] out = new byte[f.payload().readableBytes()];
            f.payload().getBytes(f.payload().readerIndex(), out);
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
