package org.sperli.protocol.payload;

import java.nio.ByteBuffer;
import java.util.Objects;
import org.sperli.ErrorCode;
import org.sperli.protocol.Encodable;
import org.sperli.protocol.Limits;
import org.sperli.protocol.Wire;

/**
 * The CKPT_DATA payload (tables section 2): a chunk of a rank file on its way to or from the buddy, or a request or
 * answer without one.
 *
 * <pre>
 * off size field
 *   0    1 kind        0 buddy copy chunk, 1 request, 2 answer chunk, 3 no valid copy, 4 needs nothing
 *   1    3 zero
 *   4    4 file rank   whose rank file this is about
 *   8    8 offset      bytes of this file already sent
 *  16    8 total       the file's whole length; 0 for kinds 1, 3, 4
 *  24    n chunk       n = payload length - 24, at most 1048576; empty for kinds 1, 3, 4
 * </pre>
 *
 * <p>Refused with H1610: a cut fixed part, nonzero zero bytes, a kind above 4, a chunk or a nonzero offset or total
 * on kinds 1, 3, 4, a chunk over 1 MiB, and {@code offset + n > total} (unsigned, without overflow). There is no
 * chunk length field: the frame length decides where the chunk ends. That each offset equals the bytes received so
 * far and the total never changes needs the frames before, so {@link ChunkSequence} checks it.
 *
 * <p>Offset and total are unsigned 64-bit held in {@code long}. The chunk is a read-only slice of the decoded buffer,
 * never a copy (it can be 1 MiB), so it is valid only while that buffer is; {@link #chunk()} returns a fresh view each
 * time, and equality compares chunk contents.
 */
public record CkptData(int kind, long fileRank, long offset, long total, ByteBuffer chunk) implements Encodable {
    public static final int KIND_BUDDY_CHUNK = 0;
    public static final int KIND_REQUEST = 1;
    public static final int KIND_ANSWER_CHUNK = 2;
    public static final int KIND_NO_COPY = 3;
    public static final int KIND_NEEDS_NOTHING = 4;

    // Each field's offset named, from the one before, as every layout here is written: the tables look alike on
    // purpose, so that each reads against the protocol's own table line by line.
    public static final int KIND_OFFSET = 0;
    public static final int ZERO_OFFSET = KIND_OFFSET + 1;
    public static final int FILE_RANK_OFFSET = ZERO_OFFSET + 3;
    public static final int FILE_OFFSET_OFFSET = FILE_RANK_OFFSET + 4;
    public static final int TOTAL_OFFSET = FILE_OFFSET_OFFSET + 8;
    public static final int CHUNK_OFFSET = TOTAL_OFFSET + 8;
    /** Bytes before the chunk: 24. */
    public static final int FIXED_LENGTH = CHUNK_OFFSET;
    /** Largest payload: 24 + 1 MiB. */
    public static final int MAX_LENGTH = FIXED_LENGTH + Limits.MAX_CHUNK;

    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0).asReadOnlyBuffer();

    /** Takes the chunk's remaining bytes as a read-only view without copying; {@code null} is an empty chunk. */
    public CkptData {
        chunk = chunk == null ? EMPTY : chunk.slice().asReadOnlyBuffer();
    }

    /** Kind 1: asks the buddy for the file of {@code fileRank}. */
    public static CkptData request(long fileRank) {
        return new CkptData(KIND_REQUEST, fileRank, 0, 0, null);
    }

    /** Kind 3: the buddy has no valid copy of the file of {@code fileRank}. */
    public static CkptData noCopy(long fileRank) {
        return new CkptData(KIND_NO_COPY, fileRank, 0, 0, null);
    }

    /** Kind 4: the rank needs nothing, so the buddy does not wait for a request. */
    public static CkptData needsNothing(long fileRank) {
        return new CkptData(KIND_NEEDS_NOTHING, fileRank, 0, 0, null);
    }

    public static CkptData read(ByteBuffer payload) {
        ByteBuffer b = Wire.viewAtLeast(payload, FIXED_LENGTH, "CKPT_DATA");
        int length = b.limit();
        int kind = Wire.u8(b, KIND_OFFSET);
        int zero = Wire.u8(b, ZERO_OFFSET) | Wire.u8(b, ZERO_OFFSET + 1) << 8 | Wire.u8(b, ZERO_OFFSET + 2) << 16;
        long offset = b.getLong(FILE_OFFSET_OFFSET);
        long total = b.getLong(TOTAL_OFFSET);
        int chunkLength = length - FIXED_LENGTH;
        String fault = zero != 0 ? "zero bytes 1..3=0x" + Integer.toHexString(zero) + ", must be 0" : null;
        if (fault == null) {
            fault = fault(kind, offset, total, chunkLength);
        }
        if (fault != null) {
            throw Wire.refuse(ErrorCode.H1610, fault);
        }
        return new CkptData(kind, Wire.u32(b, FILE_RANK_OFFSET), offset, total,
                Wire.readOnlySlice(b, CHUNK_OFFSET, chunkLength));
    }

    /** Whether this kind carries a chunk (0 and 2). */
    public boolean carriesChunk() {
        return kind == KIND_BUDDY_CHUNK || kind == KIND_ANSWER_CHUNK;
    }

    /** A fresh read-only view of the chunk; moving it does not change the record. */
    @Override
    public ByteBuffer chunk() {
        return chunk.duplicate();
    }

    /** Bytes of the chunk. */
    public int chunkLength() {
        return chunk.remaining();
    }

    @Override
    public int encodedLength() {
        Wire.requireEncodable(Wire.first(Wire.u8Fault("kind", kind), Wire.u32Fault("file rank", fileRank),
                fault(kind, offset, total, chunk.remaining())));
        return FIXED_LENGTH + chunk.remaining();
    }

    @Override
    public void write(ByteBuffer out) {
        ByteBuffer b = Wire.claim(out, encodedLength());
        b.put(KIND_OFFSET, (byte) kind);
        b.put(ZERO_OFFSET, new byte[3]);
        b.putInt(FILE_RANK_OFFSET, (int) fileRank);
        b.putLong(FILE_OFFSET_OFFSET, offset);
        b.putLong(TOTAL_OFFSET, total);
        b.put(CHUNK_OFFSET, chunk, 0, chunk.remaining());
    }

    /** The single-frame rules shared by decoder and encoder, in table order; the fault or {@code null}. */
    private static String fault(int kind, long offset, long total, int chunkLength) {
        if (kind > KIND_NEEDS_NOTHING) {
            return "kind=" + kind + ", expected 0..4";
        }
        if (kind != KIND_BUDDY_CHUNK && kind != KIND_ANSWER_CHUNK) {
            if (chunkLength != 0) {
                return "chunk length=" + chunkLength + ", kind " + kind + " carries no chunk";
            }
            if (offset != 0 || total != 0) {
                return "offset=" + Long.toUnsignedString(offset) + ", total=" + Long.toUnsignedString(total)
                        + ", kind " + kind + " carries 0 and 0";
            }
            return null;
        }
        if (chunkLength > Limits.MAX_CHUNK) {
            return "chunk length=" + chunkLength + ", maximum " + Limits.MAX_CHUNK;
        }
        // offset + n <= total, rearranged so that no unsigned value can wrap.
        if (Long.compareUnsigned(offset, total) > 0 || Long.compareUnsigned(total - offset, chunkLength) < 0) {
            return "offset=" + Long.toUnsignedString(offset) + " + chunk length=" + chunkLength
                    + " exceeds total=" + Long.toUnsignedString(total);
        }
        return null;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CkptData d && kind == d.kind && fileRank == d.fileRank && offset == d.offset
                && total == d.total && chunk.equals(d.chunk);
    }

    /** Hashes the chunk's contents, so it costs a pass over up to 1 MiB. */
    @Override
    public int hashCode() {
        return 31 * Objects.hash(kind, fileRank, offset, total) + chunk.hashCode();
    }

    @Override
    public String toString() {
        return "CkptData[kind=" + kind + ", fileRank=" + fileRank + ", offset=" + Long.toUnsignedString(offset)
                + ", total=" + Long.toUnsignedString(total) + ", chunk=" + chunk.remaining() + " bytes]";
    }
}
