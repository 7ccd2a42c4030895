package org.sperli.protocol.payload;

import java.nio.ByteBuffer;
import org.sperli.ErrorCode;
import org.sperli.protocol.Encodable;
import org.sperli.protocol.Limits;
import org.sperli.protocol.Wire;

/**
 * The CKPT_BEGIN payload (tables section 2): rank 0 starts the checkpoint of the epoch in the frame header.
 *
 * <pre>
 * off size field
 *   0    4 version   1, else H1619
 *   4    4 size      the job size, else H1623
 * </pre>
 *
 * <p>{@link #read} refuses only a length other than 8 (H1610); the version and size need the receiver's job and are
 * judged by {@link #check}, so that their codes are the checkpoint codes and not a frame refusal.
 */
public record CkptBegin(long version, long size) implements Encodable {
    public static final int VERSION_OFFSET = 0;
    public static final int SIZE_OFFSET = VERSION_OFFSET + 4;
    /** Bytes of the payload: 8. */
    public static final int LENGTH = SIZE_OFFSET + 4;

    /** The CKPT_BEGIN rank 0 sends for a job of {@code size} ranks. */
    public static CkptBegin v1(int size) {
        return new CkptBegin(Limits.VERSION, size);
    }

    public static CkptBegin read(ByteBuffer payload) {
        ByteBuffer b = Wire.viewExactly(payload, LENGTH, "CKPT_BEGIN");
        return new CkptBegin(Wire.u32(b, VERSION_OFFSET), Wire.u32(b, SIZE_OFFSET));
    }

    /** Refuses a version other than 1 (H1619), then a size other than {@code jobSize} (H1623). */
    public void check(int jobSize) {
        if (version != Limits.VERSION) {
            throw Wire.refuse(ErrorCode.H1619, "version=" + version + ", expected " + Limits.VERSION);
        }
        if (size != jobSize) {
            throw Wire.refuse(ErrorCode.H1623, "size=" + size + ", expected " + jobSize);
        }
    }

    // Checked as a receiver checks, then written at the table's offsets, as CollectiveHeader and every fixed payload
    // do over their own fields; what they share (the refusal, the claimed view) is Wire's already.
    @Override
    public int encodedLength() {
        // No receiver accepts another version or a size outside the v1 membership.
        Wire.requireEncodable(Wire.first(
                version != Limits.VERSION ? "version=" + version + ", expected " + Limits.VERSION : null,
                size < Limits.MIN_SIZE || size > Limits.MAX_SIZE
                        ? "size=" + size + ", expected " + Limits.MIN_SIZE + ".." + Limits.MAX_SIZE : null));
        return LENGTH;
    }

    @Override
    public void write(ByteBuffer out) {
        ByteBuffer b = Wire.claim(out, encodedLength());
        b.putInt(VERSION_OFFSET, (int) version);
        b.putInt(SIZE_OFFSET, (int) size);
    }
}
