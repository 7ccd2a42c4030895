package org.sperli.checkpoint;

import static org.sperli.protocol.CommitLayout.EPOCH_OFFSET;
import static org.sperli.protocol.CommitLayout.HASHES_OFFSET;
import static org.sperli.protocol.CommitLayout.HASH_LENGTH;
import static org.sperli.protocol.CommitLayout.JOB_ID_OFFSET;
import static org.sperli.protocol.CommitLayout.MAGIC;
import static org.sperli.protocol.CommitLayout.MAGIC_OFFSET;
import static org.sperli.protocol.CommitLayout.SIGNATURE_LENGTH;
import static org.sperli.protocol.CommitLayout.SIGNATURE_LENGTH_SIZE;
import static org.sperli.protocol.CommitLayout.SIZE_OFFSET;
import static org.sperli.protocol.CommitLayout.VERSION_OFFSET;
import static org.sperli.protocol.CommitLayout.lengthFor;
import static org.sperli.protocol.CommitLayout.signatureLengthOffset;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.protocol.Encodable;
import org.sperli.protocol.JobId;
import org.sperli.protocol.Wire;
import org.sperli.protocol.Limits;

/**
 * The COMMIT file of an epoch (tables section 6), signed by rank 0 with the job key.
 *
 * <pre>
 * off              size       field
 *   0                 8       magic "SPRLCMIT"
 *   8                 4       version 1
 *  12                 4       epoch
 *  16                16       job id
 *  32                 4       size, 1..4096
 *  36                32 x size SHA-256 of each whole rank file, rank 0 first
 *  36 + 32 x size     2       signature length, 2484
 *  38 + 32 x size  2484       CompositeSig over bytes 0 .. 36 + 32 x size, context {@value #CONTEXT}
 * </pre>
 *
 * <p>The offsets and lengths are {@link org.sperli.protocol.CommitLayout}'s, at the bottom of the protocol, because
 * the CKPT_COMMIT and RESUME frames carry this file and their length rules need them too. A file is exactly
 * {@link org.sperli.protocol.CommitLayout#lengthFor lengthFor(size)} = 2522 + 32 x size bytes. {@link #read} refuses
 * any malformation with H1621, checking the size range and the whole length before it allocates anything from the
 * size.
 * The signed part is the first 36 + 32 x size bytes, everything before the signature length. The signature is
 * verified elsewhere ({@code org.sperli.identity}); {@link #expect} compares the file with the job (H1621, H1623 for
 * another size) and {@link #expectRankFile} a rank file's hash with its entry (H1620).
 */
public record CommitFile(long version, long epoch, JobId jobId, long size, List<byte[]> rankFileSha256,
                         byte[] signature) implements Encodable {
    /** The CompositeSig application context of COMMIT files. */
    public static final String CONTEXT = "SPERLI-COMMIT-1";

    private static final byte[] MAGIC_BYTES = MAGIC.getBytes(StandardCharsets.US_ASCII);

    public CommitFile {
        Objects.requireNonNull(jobId, "jobId");
        List<byte[]> copies = new ArrayList<>(rankFileSha256.size());
        for (byte[] sha : rankFileSha256) {
            copies.add(Objects.requireNonNull(sha, "rank file SHA-256").clone());
        }
        rankFileSha256 = List.copyOf(copies);
        signature = signature == null ? null : signature.clone();
    }

    /** A v1 COMMIT without its signature, size = number of hashes, so that rank 0 can sign {@link #signedPart()}. */
    public static CommitFile unsigned(long epoch, JobId jobId, List<byte[]> rankFileSha256) {
        return new CommitFile(Limits.VERSION, epoch, jobId, rankFileSha256.size(), rankFileSha256, null);
    }

    /** This COMMIT with {@code signature} (2484 bytes, copied). */
    public CommitFile withSignature(byte[] signature) {
        return new CommitFile(version, epoch, jobId, size, rankFileSha256, Objects.requireNonNull(signature));
    }

    /** Decodes the bytes from {@code commit}'s position to its limit, without moving the position. Refusals: H1621. */
    public static CommitFile read(ByteBuffer commit) {
        ByteBuffer b = commit.slice().order(ByteOrder.LITTLE_ENDIAN);
        int available = b.limit();
        if (available < HASHES_OFFSET) {
            throw refuse("length=" + available + ", cut before the hashes (a COMMIT has 2522 + 32 x size bytes)");
        }
        for (int i = 0; i < MAGIC_BYTES.length; i++) {
            if (b.get(MAGIC_OFFSET + i) != MAGIC_BYTES[i]) {
                throw refuse("magic is not " + MAGIC);
            }
        }
        long version = Integer.toUnsignedLong(b.getInt(VERSION_OFFSET));
        long size = Integer.toUnsignedLong(b.getInt(SIZE_OFFSET));
        String fault = Wire.first(Wire.versionFault(version), sizeFault(size));
        if (fault != null) {
            throw refuse(fault);
        }
        int n = (int) size;
        int expected = lengthFor(n);
        if (available != expected) {
            throw refuse("length=" + available + ", expected 2522 + 32 x " + n + " = " + expected);
        }
        int signatureLength = Short.toUnsignedInt(b.getShort(signatureLengthOffset(n)));
        if (signatureLength != SIGNATURE_LENGTH) {
            throw refuse("signature length=" + signatureLength + ", expected " + SIGNATURE_LENGTH);
        }
        List<byte[]> hashes = new ArrayList<>(n);
        for (int r = 0; r < n; r++) {
            byte[] sha = new byte[HASH_LENGTH];
            b.get(HASHES_OFFSET + HASH_LENGTH * r, sha);
            hashes.add(sha);
        }
        byte[] signature = new byte[SIGNATURE_LENGTH];
        b.get(signatureLengthOffset(n) + SIGNATURE_LENGTH_SIZE, signature);
        return new CommitFile(version, Integer.toUnsignedLong(b.getInt(EPOCH_OFFSET)), JobId.read(b, JOB_ID_OFFSET),
                size, hashes, signature);
    }

    /** Compares the COMMIT with the job, in field order: epoch and job id (H1621), then size (H1623). */
    public void expect(JobId job, long epoch, long size) {
        if (this.epoch != epoch) {
            throw refuse("epoch=" + this.epoch + ", expected " + epoch);
        }
        if (!jobId.equals(job)) {
            throw refuse("job id=" + jobId.hex() + ", expected " + job.hex());
        }
        if (this.size != size) {
            throw new SperliException(ErrorCode.H1623, "COMMIT size=" + this.size + ", expected " + size);
        }
    }

    /** Checks that the COMMIT lists {@code fileSha256} for {@code rank}'s whole rank file; H1620 when it does not. */
    public void expectRankFile(long rank, byte[] fileSha256) {
        if (rank < 0 || rank >= rankFileSha256.size()) {
            throw new IllegalArgumentException("rank=" + rank + ", COMMIT has " + rankFileSha256.size() + " entries");
        }
        Objects.requireNonNull(fileSha256, "fileSha256");
        byte[] listed = rankFileSha256.get((int) rank);
        if (!MessageDigest.isEqual(listed, fileSha256)) {
            throw new SperliException(ErrorCode.H1620, "rank file " + rank + " SHA-256=" + RankFiles.hex(fileSha256)
                    + ", COMMIT lists " + RankFiles.hex(listed));
        }
    }

    /** The hashes (copies), rank 0 first. */
    @Override
    public List<byte[]> rankFileSha256() {
        List<byte[]> copies = new ArrayList<>(rankFileSha256.size());
        for (byte[] sha : rankFileSha256) {
            copies.add(sha.clone());
        }
        return copies;
    }

    /** The hash listed for {@code rank} (a copy). */
    public byte[] rankFileSha256(int rank) {
        return rankFileSha256.get(rank).clone();
    }

    /** The signature (a copy), or {@code null} for an unsigned COMMIT. */
    @Override
    public byte[] signature() {
        return signature == null ? null : signature.clone();
    }

    /** Bytes of the signed part, 36 + 32 x size; refuses (IllegalArgumentException) what {@link #read} refuses. */
    public int signedPartLength() {
        RankFiles.requireEncodable("COMMIT", Wire.first(Wire.versionFault(version),
                Wire.u32Fault("epoch", epoch), sizeFault(size), hashesFault()));
        return signatureLengthOffset((int) size);
    }

    /** Bytes 0 .. 36 + 32 x size, the message the signature covers. */
    public byte[] signedPart() {
        return Wire.written(signedPartLength(), this::writeSignedPart);
    }

    /** 2522 + 32 x size. Refuses an unsigned COMMIT or anything {@link #read} refuses. */
    @Override
    public int encodedLength() {
        int signed = signedPartLength();
        if (signature == null) {
            throw new IllegalStateException("COMMIT is unsigned: sign signedPart() and use withSignature first");
        }
        RankFiles.requireEncodable("COMMIT", signature.length != SIGNATURE_LENGTH
                ? "signature length=" + signature.length + ", expected " + SIGNATURE_LENGTH : null);
        return signed + SIGNATURE_LENGTH_SIZE + SIGNATURE_LENGTH;
    }

    /** Writes the whole file at {@code out}'s position and advances it; nothing is written when it refuses. */
    @Override
    public void write(ByteBuffer out) {
        ByteBuffer b = Wire.claim(out, encodedLength());
        writeSignedPart(b);
        int at = signatureLengthOffset((int) size);
        b.putShort(at, (short) SIGNATURE_LENGTH);
        b.put(at + SIGNATURE_LENGTH_SIZE, signature);
    }

    private void writeSignedPart(ByteBuffer b) {
        b.put(MAGIC_OFFSET, MAGIC_BYTES);
        b.putInt(VERSION_OFFSET, (int) version);
        b.putInt(EPOCH_OFFSET, (int) epoch);
        jobId.write(b, JOB_ID_OFFSET);
        b.putInt(SIZE_OFFSET, (int) size);
        for (int r = 0; r < rankFileSha256.size(); r++) {
            b.put(HASHES_OFFSET + HASH_LENGTH * r, rankFileSha256.get(r));
        }
    }

    private String hashesFault() {
        if (rankFileSha256.size() != size) {
            return "size=" + size + " but " + rankFileSha256.size() + " hashes";
        }
        for (int r = 0; r < rankFileSha256.size(); r++) {
            String fault = RankFiles.shaFault("hash of rank " + r, rankFileSha256.get(r));
            if (fault != null) {
                return fault;
            }
        }
        return null;
    }

    private static String sizeFault(long size) {
        return size < Limits.MIN_SIZE || size > Limits.MAX_SIZE ? "size=" + size + ", expected 1..4096" : null;
    }

    private static SperliException refuse(String reason) {
        return new SperliException(ErrorCode.H1621, "COMMIT " + reason);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof CommitFile c) || version != c.version || epoch != c.epoch || size != c.size
                || !jobId.equals(c.jobId) || !Arrays.equals(signature, c.signature)
                || rankFileSha256.size() != c.rankFileSha256.size()) {
            return false;
        }
        for (int r = 0; r < rankFileSha256.size(); r++) {
            if (!Arrays.equals(rankFileSha256.get(r), c.rankFileSha256.get(r))) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        return Objects.hash(version, epoch, jobId, size) * 31 + Arrays.hashCode(signature);
    }

    @Override
    public String toString() {
        return "CommitFile[version=" + version + ", epoch=" + epoch + ", jobId=" + jobId + ", size=" + size
                + ", hashes=" + rankFileSha256.size() + ", signature="
                + (signature == null ? "none" : signature.length + " bytes") + "]";
    }
}
