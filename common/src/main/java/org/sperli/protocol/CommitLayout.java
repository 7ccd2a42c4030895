package org.sperli.protocol;

/**
 * The layout of the COMMIT file (tables section 6, protocol 9.3): its offsets and lengths, which frames carry too. A
 * CKPT_COMMIT payload is a COMMIT file, a RESUME may end with one, so the frame types' length rules and the RESUME
 * codec take their lengths from here, at the bottom of the protocol, without knowing {@code org.sperli.checkpoint};
 * {@code org.sperli.checkpoint.CommitFile} reads and writes the file by the same constants.
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
 *  38 + 32 x size  2484       CompositeSig over bytes 0 .. 36 + 32 x size
 * </pre>
 */
public final class CommitLayout {
    // Each field's offset named, from the one before, as every layout here is written: the tables look alike on
    // purpose, so that each reads against the protocol's own table line by line.
    public static final String MAGIC = "SPRLCMIT";
    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = MAGIC_OFFSET + 8;
    public static final int EPOCH_OFFSET = VERSION_OFFSET + 4;
    public static final int JOB_ID_OFFSET = EPOCH_OFFSET + 4;
    public static final int SIZE_OFFSET = JOB_ID_OFFSET + JobId.LENGTH;
    public static final int HASHES_OFFSET = SIZE_OFFSET + 4;
    /** Bytes of one hash: a SHA-256 (the same as {@code org.sperli.crypto.Sha256.LENGTH}, which a test checks). */
    public static final int HASH_LENGTH = 32;
    /** Bytes of the signature length field, which follows the hashes. */
    public static final int SIGNATURE_LENGTH_SIZE = 2;
    /** A CompositeSig (ML-DSA-44 and Ed25519) signature. */
    public static final int SIGNATURE_LENGTH = 2484;
    /** Bytes of a COMMIT file besides its hashes: 2522. */
    public static final int FIXED_LENGTH = HASHES_OFFSET + SIGNATURE_LENGTH_SIZE + SIGNATURE_LENGTH;
    /** Shortest and longest COMMIT file (size 1 and 4096). */
    public static final int MIN_LENGTH = FIXED_LENGTH + HASH_LENGTH * Limits.MIN_SIZE;
    public static final int MAX_LENGTH = FIXED_LENGTH + HASH_LENGTH * Limits.MAX_SIZE;

    private CommitLayout() {
    }

    /** Bytes of the COMMIT file of a job of {@code size} ranks (1..4096): 2522 + 32 x size. */
    public static int lengthFor(int size) {
        if (size < Limits.MIN_SIZE || size > Limits.MAX_SIZE) {
            throw new IllegalArgumentException("size=" + size + ", expected 1..4096");
        }
        return FIXED_LENGTH + HASH_LENGTH * size;
    }

    /** Offset of the signature length field in a COMMIT of {@code size} ranks: 36 + 32 x size. */
    public static int signatureLengthOffset(int size) {
        return HASHES_OFFSET + HASH_LENGTH * size;
    }
}
