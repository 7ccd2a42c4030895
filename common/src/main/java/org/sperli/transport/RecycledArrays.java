package org.sperli.transport;

import java.util.ArrayDeque;
import java.util.Iterator;
import org.sperli.protocol.Limits;

/**
 * Data arrays of large COLLECTIVE frames that a rank only read and let go, kept for the next such frames of their
 * length. The root of a reduce or allreduce receives one contribution of the same length from every other rank per
 * call (tables section 10) and folds all but the first into the first: without this, each of those took a fresh array
 * that Java zeroes before the decoder overwrites every byte of it, and the garbage collector took it back soon after.
 * Keeping them cuts both costs of the root's calls (see docs/performance.md, section 6.3; the results the other ranks
 * hand to their programs still need arrays of their own).
 *
 * <p>Kept are at most {@link #MAX_KEPT_BYTES} in all, the newest first, so that a rank never holds more than one
 * largest collective's data beyond what its program holds. An array is given back only by code that read it and keeps
 * no view of it ({@code CollectiveEngine}'s fold with {@code Combine}); an array handed to a program is never given
 * back. Thread-safe: the decoder takes on the connection's event loop, the fold gives back on the program's thread.
 */
public final class RecycledArrays {
    /** The most data kept, in bytes: one largest COLLECTIVE payload. */
    static final long MAX_KEPT_BYTES = Limits.MAX_PAYLOAD;

    private final ArrayDeque<byte[]> kept = new ArrayDeque<>();
    private long keptBytes;

    /** A kept array of exactly {@code length} bytes, its old content still in it, or else a new one. */
    synchronized byte[] take(int length) {
        for (Iterator<byte[]> it = kept.iterator(); it.hasNext();) {
            byte[] array = it.next();
            if (array.length == length) {
                it.remove();
                keptBytes -= length;
                return array;
            }
        }
        return new byte[length];
    }

    /**
     * Keeps {@code array} for a later {@link #take}, dropping the oldest kept arrays beyond {@link #MAX_KEPT_BYTES}.
     * The caller must hold no reference to it that it still reads.
     */
    synchronized void give(byte[] array) {
        if (array.length == 0 || array.length > MAX_KEPT_BYTES) {
            return;
        }
        kept.addFirst(array);
        keptBytes += array.length;
        while (keptBytes > MAX_KEPT_BYTES) {
            keptBytes -= kept.removeLast().length;
        }
    }

    /** Bytes kept now. */
    synchronized long keptBytes() {
        return keptBytes;
    }
}
