package org.sperli.checkpoint;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.crypto.Sha256;
import org.sperli.protocol.JobId;

/**
 * Hashes and checks of rank files held as buffers: the state hash in the header, the hash of the whole file that
 * CKPT_ACK and COMMIT carry, and the full check of a file (or buddy copy) in memory.
 *
 * <p>Every method reads from the buffer's position to its limit and leaves the position where it was; nothing is
 * copied, so a state of any size costs no extra memory. Callers that stream a file from disk feed
 * {@link Sha256#newDigest()} themselves and then use {@link RankFileHeader#expect}.
 */
public final class RankFiles {
    private RankFiles() {
    }

    /**
     * SHA-256 of the whole rank file, header then state, as CKPT_ACK and the COMMIT entries carry it; computed without
     * joining the two.
     */
    public static byte[] fileSha256(RankFileHeader header, ByteBuffer state) {
        MessageDigest digest = Sha256.newDigest();
        digest.update(header.toBytes());
        Sha256.update(digest, state);
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
        byte[] actual = Sha256.of(state);
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
        return sha.length != Sha256.LENGTH ? field + " of " + sha.length + " bytes, expected " + Sha256.LENGTH : null;
    }

    /** An encoder's refusal: the decoder's words, raised as the sender's programming error. */
    static void requireEncodable(String what, String fault) {
        if (fault != null) {
            throw new IllegalArgumentException("refusing to write a " + what + " a reader refuses: " + fault);
        }
    }
}
