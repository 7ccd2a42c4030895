package org.sperli.protocol.frame;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.sperli.protocol.JobId;

/**
 * The 52-byte frame header (tables section 1), all fields unsigned little endian.
 *
 * <pre>
 * off size field
 *   0    4 length             payload bytes, at most 16777216
 *   4    1 type               1..11
 *   5    1 flags              0
 *   6    2 service            0
 *   8    8 membership epoch   0
 *  16   16 job id
 *  32    4 source rank
 *  36    4 target rank
 *  40    4 incarnation
 *  44    4 tag                DATA: 0..2147483647; every other type 0
 *  48    4 epoch              checkpoint epoch for types 6..10, else 0
 * </pre>
 *
 * <p>A decoded header is the raw fields, unchecked: {@link HeaderCheck} gives the verdict. Unsigned 32-bit fields are
 * held in {@code long} so that values above 2^31 survive for the check to name them.
 */
public record FrameHeader(
        long length,
        int type,
        int flags,
        int service,
        long membershipEpoch,
        JobId jobId,
        long sourceRank,
        long targetRank,
        long incarnation,
        long tag,
        long epoch) {

    // Each field's offset named, from the one before, as every layout here is written: the tables look alike on
    // purpose, so that each reads against the protocol's own table line by line.
    public static final int LENGTH_OFFSET = 0;
    public static final int TYPE_OFFSET = LENGTH_OFFSET + 4;
    public static final int FLAGS_OFFSET = TYPE_OFFSET + 1;
    public static final int SERVICE_OFFSET = FLAGS_OFFSET + 1;
    public static final int MEMBERSHIP_EPOCH_OFFSET = SERVICE_OFFSET + 2;
    public static final int JOB_ID_OFFSET = MEMBERSHIP_EPOCH_OFFSET + 8;
    public static final int SOURCE_RANK_OFFSET = JOB_ID_OFFSET + JobId.LENGTH;
    public static final int TARGET_RANK_OFFSET = SOURCE_RANK_OFFSET + 4;
    public static final int INCARNATION_OFFSET = TARGET_RANK_OFFSET + 4;
    public static final int TAG_OFFSET = INCARNATION_OFFSET + 4;
    public static final int EPOCH_OFFSET = TAG_OFFSET + 4;
    /** Bytes of a header: 52. */
    public static final int LENGTH = EPOCH_OFFSET + 4;

    /** A header for sending: flags, service and membership epoch are always 0 in v1. */
    public static FrameHeader of(FrameType type, long length, JobId jobId, int source, int target, long incarnation,
                                 long tag, long epoch) {
        return new FrameHeader(length, type.code(), 0, 0, 0, jobId, source, target, incarnation, tag, epoch);
    }

    /**
     * Reads the raw fields of the 52 bytes at the buffer's absolute {@code offset}; nothing is checked and the
     * position is not moved.
     */
    public static FrameHeader read(ByteBuffer buffer, int offset) {
        if (buffer.limit() - offset < LENGTH) {
            throw new IllegalArgumentException("header needs 52 bytes, have " + (buffer.limit() - offset));
        }
        ByteBuffer b = buffer.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        return new FrameHeader(
                Integer.toUnsignedLong(b.getInt(offset + LENGTH_OFFSET)),
                Byte.toUnsignedInt(b.get(offset + TYPE_OFFSET)),
                Byte.toUnsignedInt(b.get(offset + FLAGS_OFFSET)),
                Short.toUnsignedInt(b.getShort(offset + SERVICE_OFFSET)),
                b.getLong(offset + MEMBERSHIP_EPOCH_OFFSET),
                JobId.read(b, offset + JOB_ID_OFFSET),
                Integer.toUnsignedLong(b.getInt(offset + SOURCE_RANK_OFFSET)),
                Integer.toUnsignedLong(b.getInt(offset + TARGET_RANK_OFFSET)),
                Integer.toUnsignedLong(b.getInt(offset + INCARNATION_OFFSET)),
                Integer.toUnsignedLong(b.getInt(offset + TAG_OFFSET)),
                Integer.toUnsignedLong(b.getInt(offset + EPOCH_OFFSET)));
    }

    /**
     * Writes the header at the buffer's absolute {@code offset}. It refuses (IllegalArgumentException) to write what
     * every v1 receiver would refuse regardless of its context, so a bug shows at the sender.
     */
    public void write(ByteBuffer buffer, int offset) {
        String fault = HeaderCheck.contextFreeFault(this);
        if (fault != null) {
            throw new IllegalArgumentException("refusing to send a header a receiver refuses: " + fault);
        }
        writeUnchecked(buffer, offset);
    }

    /** Writes the fields as they are; for tests and vectors that must produce refused headers. */
    public void writeUnchecked(ByteBuffer buffer, int offset) {
        ByteBuffer b = buffer.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(offset + LENGTH_OFFSET, (int) length);
        b.put(offset + TYPE_OFFSET, (byte) type);
        b.put(offset + FLAGS_OFFSET, (byte) flags);
        b.putShort(offset + SERVICE_OFFSET, (short) service);
        b.putLong(offset + MEMBERSHIP_EPOCH_OFFSET, membershipEpoch);
        jobId.write(b, offset + JOB_ID_OFFSET);
        b.putInt(offset + SOURCE_RANK_OFFSET, (int) sourceRank);
        b.putInt(offset + TARGET_RANK_OFFSET, (int) targetRank);
        b.putInt(offset + INCARNATION_OFFSET, (int) incarnation);
        b.putInt(offset + TAG_OFFSET, (int) tag);
        b.putInt(offset + EPOCH_OFFSET, (int) epoch);
    }

    /** The header as a fresh 52-byte array. */
    public byte[] toBytes() {
        byte[] out = new byte[LENGTH];
        write(ByteBuffer.wrap(out), 0);
        return out;
    }

    /** The frame type, or {@code null} when the code is not a v1 type. */
    public FrameType frameType() {
        return FrameType.ofCode(type);
    }
}
