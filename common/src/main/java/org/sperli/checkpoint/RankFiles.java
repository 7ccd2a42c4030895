package org.sperli.checkpoint;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.protocol.JobId;

/**
 * Hashes and checks of rank files held as buffers: the state hash in the header, the hash of the whole file that
 * CKPT_ACK and COMMIT carry, and the full check of a file (or buddy copy) in memory.
 *
 * <p>Every method reads from the buffer's position to its limit and leaves the position where it was; nothing is
 * copied, so a state of any size costs no extra memory. Callers that stream a file from disk feed
 * {@link #newSha256()} themselves and then use {@link RankFileHeader#expect}.
 */
public final class RankFiles {
    /** Bytes of a SHA-256. */
    public static final int SHA256_LENGTH = 32;

    private RankFiles() {
    }

    /** A fresh SHA-256 digest (every Java platform has one). */
    public static MessageDigest newSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the platform has no SHA-256", e);
        }
    }

    /** SHA-256 of the bytes from {@code data}'s position to its limit; the position is not moved. */
    public static byte[] sha256(ByteBuffer data) {
        MessageDigest digest = newSha256();
        digest.update(data.duplicate());
        return digest.digest();
    }

    /**
     * SHA-256 of the whole rank file, header then state, as CKPT_ACK and the COMMIT entries carry it; computed without
     * joining the two.
     */
    public static byte[] fileSha256(RankFileHeader header, ByteBuffer state) {
        MessageDigest digest = newSha256();
        digest.update(header.toBytes());
        digest.update(state.duplicate());
        return digest.digest();
    }

    /**
     * Checks that {@code state} is the state the header describes: its length (H1619, the file would not be 80 + L
     * bytes) and then its SHA-256 (H1620).
     */
    public static void verifyState(RankFileHeader header, ByteBuffer state) {
        if (state.remaining() != header.stateLength()) {
            throw new SperliException(ErrorCode.H1619,
                    "rank file state length=" + state.remaining() + ", header says " + header.stateLength());
        }
        byte[] actual = sha256(state);
        if (!MessageDigest.isEqual(actual, header.stateSha256())) {
            throw new SperliException(ErrorCode.H1620, "rank file state SHA-256=" + hex(actual) + ", header says "
                    + hex(header.stateSha256()));
        }
    }

    /**
     * The full reader's check of a rank file held in memory (a buddy copy, a fetched file): header (H1619), what is
     * expected of it ({@link RankFileHeader#expect}), then the state hash (H1620). Returns the header.
     */
    public static RankFileHeader verifyFile(ByteBuffer file, JobId job, long epoch, long rank, long size) {
        int at = file.position();
        if (file.remaining() < RankFileHeader.LENGTH) {
            throw new SperliException(ErrorCode.H1619, "rank file length=" + file.remaining()
                    + ", cut inside the " + RankFileHeader.LENGTH + "-byte header");
        }
        RankFileHeader header = RankFileHeader.read(file.slice(at, RankFileHeader.LENGTH));
        header.expect(job, epoch, rank, size, file.remaining());
        verifyState(header, file.slice(at + RankFileHeader.LENGTH, file.remaining() - RankFileHeader.LENGTH));
        return header;
    }

    /** 64 lower-case hex digits, for messages. */
    public static String hex(byte[] sha) {
        return HexFormat.of().formatHex(sha);
    }

    static String shaFault(String field, byte[] sha) {
        return sha.length != SHA256_LENGTH ? field + " of " + sha.length + " bytes, expected " + SHA256_LENGTH : null;
    }

    /** An encoder's refusal: the decoder's words, raised as the sender's programming error. */
    static void requireEncodable(String what, String fault) {
        if (fault != null) {
            throw new IllegalArgumentException("refusing to write a " + what + " a reader refuses: " + fault);
        }
    }
}
