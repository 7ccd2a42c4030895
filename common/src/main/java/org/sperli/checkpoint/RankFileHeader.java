package org.sperli.checkpoint;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.crypto.Sha256;
import org.sperli.protocol.Encodable;
import org.sperli.protocol.JobId;
import org.sperli.protocol.Wire;
import org.sperli.protocol.Limits;

/**
 * The 80-byte header of a rank file (tables section 6); the state follows it.
 *
 * <pre>
 * off size field
 *   0    8 magic        "SPRLCKPT"
 *   8    4 version      1
 *  12    4 epoch
 *  16   16 job id
 *  32    4 rank
 *  36    4 size
 *  40    8 state length L; the file is exactly 80 + L bytes
 *  48   32 SHA-256 of the state
 * </pre>
 *
 * <p>{@link #read} refuses what no v1 rank file can be (cut or long input, magic, version, a state length no file can
 * have) with H1619; {@link #expect} then compares the header with what the reader expects (H1619, H1623 for another
 * size) and {@link RankFiles#verifyState} the state with its hash (H1620). The header never holds the state: states may
 * be large, and travel as buffer slices.
 */
public record RankFileHeader(long version, long epoch, JobId jobId, long rank, long size, long stateLength,
                             byte[] stateSha256) implements Encodable {
    // Each field's offset named, from the one before, as every layout here is written: the tables look alike on
    // purpose, so that each reads against the protocol's own table line by line.
    public static final String MAGIC = "SPRLCKPT";
    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = MAGIC_OFFSET + 8;
    public static final int EPOCH_OFFSET = VERSION_OFFSET + 4;
    public static final int JOB_ID_OFFSET = EPOCH_OFFSET + 4;
    public static final int RANK_OFFSET = JOB_ID_OFFSET + JobId.LENGTH;
    public static final int SIZE_OFFSET = RANK_OFFSET + 4;
    public static final int STATE_LENGTH_OFFSET = SIZE_OFFSET + 4;
    public static final int STATE_SHA256_OFFSET = STATE_LENGTH_OFFSET + 8;
    /** Bytes of the header: 80. */
    public static final int LENGTH = STATE_SHA256_OFFSET + Sha256.LENGTH;
    /** Longest state whose file length 80 + L still fits a signed 64-bit length. */
    public static final long MAX_STATE_LENGTH = Long.MAX_VALUE - LENGTH;

    private static final byte[] MAGIC_BYTES = MAGIC.getBytes(StandardCharsets.US_ASCII);

    public RankFileHeader {
        Objects.requireNonNull(jobId, "jobId");
        stateSha256 = Objects.requireNonNull(stateSha256, "stateSha256").clone();
    }

    /** The v1 header of {@code state} (position to limit, not moved); the state is hashed in place, not copied. */
    public static RankFileHeader forState(JobId jobId, long epoch, long rank, long size, ByteBuffer state) {
        return new RankFileHeader(Limits.VERSION, epoch, jobId, rank, size, state.remaining(), Sha256.of(state));
    }

    /**
     * Decodes exactly the 80 bytes from {@code first80}'s position to its limit, without moving the position.
     * Anything that is not a v1 rank file header is H1619.
     */
    public static RankFileHeader read(ByteBuffer first80) {
        ByteBuffer b = first80.slice().order(ByteOrder.LITTLE_ENDIAN);
        if (b.limit() != LENGTH) {
            throw refuse("header length=" + b.limit() + ", expected " + LENGTH
                    + (b.limit() < LENGTH ? " (cut)" : " (trailing bytes)"));
        }
        for (int i = 0; i < MAGIC_BYTES.length; i++) {
            if (b.get(MAGIC_OFFSET + i) != MAGIC_BYTES[i]) {
                throw refuse("magic is not " + MAGIC);
            }
        }
        long version = Integer.toUnsignedLong(b.getInt(VERSION_OFFSET));
        long stateLength = b.getLong(STATE_LENGTH_OFFSET);
        String fault = Wire.versionFault(version);
        if (fault == null) {
            fault = stateLengthFault(stateLength);
        }
        if (fault != null) {
            throw refuse(fault);
        }
        byte[] sha = new byte[Sha256.LENGTH];
        b.get(STATE_SHA256_OFFSET, sha);
        return new RankFileHeader(version,
                Integer.toUnsignedLong(b.getInt(EPOCH_OFFSET)),
                JobId.read(b, JOB_ID_OFFSET),
                Integer.toUnsignedLong(b.getInt(RANK_OFFSET)),
                Integer.toUnsignedLong(b.getInt(SIZE_OFFSET)),
                stateLength,
                sha);
    }

    /**
     * Checks the header against what the reader expects, in field order: epoch, job id and rank (H1619), size (H1623),
     * then the file length, which must be exactly 80 + state length (H1619).
     */
    public void expect(JobId job, long epoch, long rank, long size, long fileLength) {
        if (this.epoch != epoch) {
            throw refuse("epoch=" + this.epoch + ", expected " + epoch);
        }
        if (!jobId.equals(job)) {
            throw refuse("job id=" + jobId.hex() + ", expected " + job.hex());
        }
        if (this.rank != rank) {
            throw refuse("rank=" + this.rank + ", expected " + rank);
        }
        if (this.size != size) {
            throw new SperliException(ErrorCode.H1623, "rank file size=" + this.size + ", expected " + size);
        }
        // stateLength <= MAX_STATE_LENGTH after read, so the sum cannot overflow.
        if (stateLength < 0 || fileLength != LENGTH + stateLength) {
            throw refuse("file length=" + fileLength + ", expected 80 + state length " + stateLength);
        }
    }

    /** The hash of the state (a copy). */
    @Override
    public byte[] stateSha256() {
        return stateSha256.clone();
    }

    /** 80; refuses (IllegalArgumentException) a header that {@link #read} would refuse. */
    @Override
    public int encodedLength() {
        RankFiles.requireEncodable("rank file header", Wire.first(Wire.versionFault(version),
                Wire.u32Fault("epoch", epoch), Wire.u32Fault("rank", rank),
                Wire.u32Fault("size", size), stateLengthFault(stateLength),
                RankFiles.shaFault("state SHA-256", stateSha256)));
        return LENGTH;
    }

    /** Writes the 80 bytes at {@code out}'s position and advances it; nothing is written when it refuses. */
    @Override
    public void write(ByteBuffer out) {
        ByteBuffer b = Wire.claim(out, encodedLength());
        b.put(MAGIC_OFFSET, MAGIC_BYTES);
        b.putInt(VERSION_OFFSET, (int) version);
        b.putInt(EPOCH_OFFSET, (int) epoch);
        jobId.write(b, JOB_ID_OFFSET);
        b.putInt(RANK_OFFSET, (int) rank);
        b.putInt(SIZE_OFFSET, (int) size);
        b.putLong(STATE_LENGTH_OFFSET, stateLength);
        b.put(STATE_SHA256_OFFSET, stateSha256);
    }

    private static String stateLengthFault(long stateLength) {
        return stateLength < 0 || stateLength > MAX_STATE_LENGTH
                ? "state length=" + Long.toUnsignedString(stateLength) + ", maximum " + MAX_STATE_LENGTH : null;
    }

    private static SperliException refuse(String reason) {
        return new SperliException(ErrorCode.H1619, "rank file " + reason);
    }

    // Written out because a record compares the stateSha256 array by reference; JoinToken does the same for its
    // signature.
    @Override
    public boolean equals(Object o) {
        return o instanceof RankFileHeader h && version == h.version && epoch == h.epoch && jobId.equals(h.jobId)
                && rank == h.rank && size == h.size && stateLength == h.stateLength
                && Arrays.equals(stateSha256, h.stateSha256);
    }

    @Override
    public int hashCode() {
        return Objects.hash(version, epoch, jobId, rank, size, stateLength) * 31 + Arrays.hashCode(stateSha256);
    }

    @Override
    public String toString() {
        return "RankFileHeader[version=" + version + ", epoch=" + epoch + ", jobId=" + jobId + ", rank=" + rank
                + ", size=" + size + ", stateLength=" + stateLength + ", stateSha256="
                + RankFiles.hex(stateSha256) + "]";
    }
}
