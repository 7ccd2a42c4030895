package org.sperli.protocol.payload;

import org.sperli.ErrorCode;
import org.sperli.protocol.Wire;

/**
 * The rules of CKPT_DATA that need the frames before (tables section 2): the chunks of one file transfer come in
 * order, the offset of each is the number of bytes received so far, and the total never changes. One instance follows
 * one file on one connection; it also refuses a chunk of another kind or file rank mid-transfer, since the sender
 * sends one file's chunks in a row.
 *
 * <p>Not thread-safe: a connection's frames are handled in order by one thread. Every refusal is H1610.
 */
public final class ChunkSequence {
    private boolean started;
    private int kind;
    private long fileRank;
    private long total;
    private long received;

    /**
     * Accepts the next chunk of the transfer or refuses it. The frame itself already passed {@link CkptData#read},
     * so {@code offset + chunk <= total} holds and {@link #received()} cannot exceed {@link #total()}.
     */
    public void accept(CkptData next) {
        if (!next.carriesChunk()) {
            throw Wire.refuse(ErrorCode.H1610, "kind=" + next.kind() + " in a chunk sequence, expected "
                    + CkptData.KIND_BUDDY_CHUNK + " or " + CkptData.KIND_ANSWER_CHUNK);
        }
        if (started) {
            if (next.kind() != kind) {
                throw Wire.refuse(ErrorCode.H1610, "kind=" + next.kind() + ", expected " + kind + " as before");
            }
            if (next.fileRank() != fileRank) {
                throw Wire.refuse(ErrorCode.H1610,
                        "file rank=" + next.fileRank() + ", expected " + fileRank + " as before");
            }
            if (next.total() != total) {
                throw Wire.refuse(ErrorCode.H1610, "total=" + Long.toUnsignedString(next.total())
                        + ", expected " + Long.toUnsignedString(total) + " as before");
            }
        }
        if (next.offset() != received) {
            throw Wire.refuse(ErrorCode.H1610, "offset=" + Long.toUnsignedString(next.offset())
                    + ", expected the bytes received so far = " + Long.toUnsignedString(received));
        }
        if (!started) {
            started = true;
            kind = next.kind();
            fileRank = next.fileRank();
            total = next.total();
        }
        received += next.chunkLength();
    }

    /** Whether a first chunk was accepted. */
    public boolean started() {
        return started;
    }

    /** Bytes accepted so far (unsigned). */
    public long received() {
        return received;
    }

    /** The total of the first chunk (unsigned), or 0 before it. */
    public long total() {
        return total;
    }

    /** Whether the whole file has arrived: a first chunk was accepted and the bytes reached its total. */
    public boolean complete() {
        return started && received == total;
    }
}
