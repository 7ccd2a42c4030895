package org.sperli.runtime;

import io.netty.buffer.ByteBuf;
import java.time.Duration;
import org.sperli.transport.Frame;

/** A posted receive. The matched frame is copied into the caller's array on the caller's thread, not the event loop. */
final class RecvRequest extends CountedRequest<byte[]> {
    final int source;
    final long tag;
    private final Mailbox mailbox;
    /** Set under the mailbox's lock when a DATA frame matches. */
    private Frame matched;
    private byte[] result;

    RecvRequest(Mailbox mailbox, int source, long tag) {
        this.mailbox = mailbox;
        this.source = source;
        this.tag = tag;
    }

    @Override
    public byte[] await() {
        return awaitNanos(-1);
    }

    @Override
    public byte[] await(Duration timeout) {
        return awaitNanos(timeout.toNanos());
    }

    @Override
    public boolean test() {
        if (!mailbox.testMatch(this)) {
            return false;
        }
        seen();
        return true;
    }

    /** The message, or null when {@code timeoutNs} (negative: no bound) passed first. */
    byte[] awaitNanos(long timeoutNs) {
        if (!mailbox.awaitMatch(this, timeoutNs)) {
            return null;
        }
        seen();
        return take();
    }

    /** The match, under the mailbox's lock. */
    void matched(Frame frame) {
        this.matched = frame;
    }

    /** Whether a frame matched; read under the mailbox's lock. */
    boolean done() {
        return matched != null || result != null;
    }

    /** Copies and releases the matched frame once; later calls give the same array. */
    private synchronized byte[] take() {
        if (result == null) {
            Frame f = matched;
            ByteBuf p = f.payload();
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
}
