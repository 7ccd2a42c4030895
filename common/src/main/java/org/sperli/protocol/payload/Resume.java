package org.sperli.protocol.payload;

import java.nio.ByteBuffer;
import java.util.Objects;
import org.sperli.ErrorCode;
import org.sperli.protocol.CommitLayout;
import org.sperli.protocol.Encodable;
import org.sperli.protocol.Limits;
import org.sperli.protocol.Wire;

/**
 * The RESUME payload (tables section 2): a status, then the bytes of a COMMIT file or nothing.
 *
 * <pre>
 * off size field
 *   0    4 status   0 resume / go on, 1 loaded with the buddy's copy, 2 cannot load, 3 offer
 *   4    c COMMIT   c = 0, or 2522 + 32 x size with a COMMIT file (only with status 0 or 3)
 * </pre>
 *
 * <p>Refused with H1610: a length other than 4 or 4 + 2522 + 32 x size, a status above 3, and a COMMIT with status 1
 * or 2 (the tables carry one only with an offer and rank 0's first status 0, "empty otherwise"). The COMMIT is not
 * parsed here; {@code org.sperli.checkpoint} does that.
 *
 * <p>{@link #commit()} is {@code null} when the payload has none (an empty buffer given to the constructor means the
 * same); otherwise it is a read-only slice of the decoded buffer, never a copy, and a fresh view on every call.
 */
public record Resume(long status, ByteBuffer commit) implements Encodable {
    public static final int GO_ON = 0;
    public static final int LOADED_FROM_BUDDY = 1;
    public static final int CANNOT_LOAD = 2;
    public static final int OFFER = 3;

    // Each field's offset named, from the one before, as every layout here is written: the tables look alike on
    // purpose, so that each reads against the protocol's own table line by line.
    public static final int STATUS_OFFSET = 0;
    public static final int COMMIT_OFFSET = STATUS_OFFSET + 4;
    /** Bytes without a COMMIT: 4. */
    public static final int FIXED_LENGTH = COMMIT_OFFSET;

    /** Takes the COMMIT's remaining bytes as a read-only view without copying; null or empty means none. */
    public Resume {
        commit = commit == null || !commit.hasRemaining() ? null : commit.slice().asReadOnlyBuffer();
    }

    /** A status without a COMMIT. */
    public static Resume of(int status) {
        return new Resume(status, null);
    }

    /** Decodes the whole payload of a job of {@code jobSize} ranks, which fixes the COMMIT length. */
    public static Resume read(ByteBuffer payload, int jobSize) {
        if (jobSize < Limits.MIN_SIZE || jobSize > Limits.MAX_SIZE) {
            throw new IllegalArgumentException("job size=" + jobSize + ", expected 1..4096");
        }
        ByteBuffer b = Wire.view(payload);
        int length = b.limit();
        int withCommit = FIXED_LENGTH + commitLength(jobSize);
        if (length != FIXED_LENGTH && length != withCommit) {
            throw Wire.refuse(ErrorCode.H1610, "length=" + length + ", RESUME is " + FIXED_LENGTH + " or "
                    + withCommit + " for size " + jobSize);
        }
        long status = Wire.u32(b, STATUS_OFFSET);
        ByteBuffer commit = length == FIXED_LENGTH ? null : Wire.readOnlySlice(b, COMMIT_OFFSET, length - FIXED_LENGTH);
        String fault = fault(status, commit);
        if (fault != null) {
            throw Wire.refuse(ErrorCode.H1610, fault);
        }
        return new Resume(status, commit);
    }

    /** Bytes of a COMMIT file for {@code size} ranks (1..4096): 2522 + 32 x size. */
    public static int commitLength(int size) {
        return CommitLayout.lengthFor(size);
    }

    /** A fresh read-only view of the COMMIT bytes, or {@code null} when there are none. */
    @Override
    public ByteBuffer commit() {
        return commit == null ? null : commit.duplicate();
    }

    public boolean hasCommit() {
        return commit != null;
    }

    @Override
    public int encodedLength() {
        Wire.requireEncodable(Wire.first(fault(status, commit), commitLengthFault()));
        return FIXED_LENGTH + (commit == null ? 0 : commit.remaining());
    }

    @Override
    public void write(ByteBuffer out) {
        ByteBuffer b = Wire.claim(out, encodedLength());
        b.putInt(STATUS_OFFSET, (int) status);
        if (commit != null) {
            b.put(COMMIT_OFFSET, commit, 0, commit.remaining());
        }
    }

    private static String fault(long status, ByteBuffer commit) {
        if (status < 0 || status > OFFER) {
            return "status=" + status + ", expected 0..3";
        }
        if (commit != null && (status == LOADED_FROM_BUDDY || status == CANNOT_LOAD)) {
            return "status=" + status + " with a COMMIT of " + commit.remaining() + " bytes, only 0 and 3 carry one";
        }
        return null;
    }

    /** The encoder does not know the job size, so it refuses only what fits no size of v1. */
    private String commitLengthFault() {
        if (commit == null) {
            return null;
        }
        int c = commit.remaining();
        int hashes = c - CommitLayout.FIXED_LENGTH;
        boolean fits = c >= CommitLayout.MIN_LENGTH && c <= CommitLayout.MAX_LENGTH
                && hashes % CommitLayout.HASH_LENGTH == 0;
        return fits ? null : "COMMIT length=" + c + ", expected 2522 + 32 x size for size 1..4096";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Resume r && status == r.status && Objects.equals(commit, r.commit);
    }

    /** Hashes the COMMIT's contents. */
    @Override
    public int hashCode() {
        return 31 * Long.hashCode(status) + Objects.hashCode(commit);
    }

    @Override
    public String toString() {
        return "Resume[status=" + status + ", commit=" + (commit == null ? "none" : commit.remaining() + " bytes")
                + "]";
    }
}
