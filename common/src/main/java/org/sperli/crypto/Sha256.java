package org.sperli.crypto;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * SHA-256 of byte arrays, buffers and files, without copying the input: checkpoint files and their payloads are hashed
 * as
 * slices where they lie. Every call uses its own digest, so this is safe from any thread.
 */
public final class Sha256 {
    /** Bytes of a SHA-256 hash. */
    public static final int LENGTH = 32;
    /** The largest piece a read-only heap buffer is hashed in. */
    static final int SCRATCH_BYTES = 64 * 1024;

    private Sha256() {
    }

    /** A fresh digest, for hashing input that arrives in pieces. */
    public static MessageDigest newDigest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    /** SHA-256 of the whole array. */
    public static byte[] of(byte[] data) {
        return newDigest().digest(data);
    }

    /** SHA-256 of {@code length} bytes of {@code data} from {@code offset}. */
    public static byte[] of(byte[] data, int offset, int length) {
        MessageDigest digest = newDigest();
        digest.update(data, offset, length);
        return digest.digest();
    }

    /** SHA-256 of the bytes from the buffer's position to its limit; the buffer's position is not moved. */
    public static byte[] of(ByteBuffer data) {
        MessageDigest digest = newDigest();
        update(digest, data);
        return digest.digest();
    }

    /**
     * Feeds the bytes from the buffer's position to its limit to {@code digest}, without moving the position and
     * without allocating in proportion to them. A direct buffer or one with an accessible array is read in place; a
     * read-only heap buffer (as payloads are decoded) goes through a bounded scratch array, because the native
     * provider would otherwise copy all of it into a fresh array of its size.
     */
    public static void update(MessageDigest digest, ByteBuffer data) {
        if (data.isDirect() || data.hasArray()) {
            digest.update(data.duplicate());
            return;
        }
        ByteBuffer rest = data.duplicate();
        byte[] scratch = new byte[Math.min(rest.remaining(), SCRATCH_BYTES)];
        while (rest.hasRemaining()) {
            int n = Math.min(rest.remaining(), scratch.length);
            rest.get(scratch, 0, n);
            digest.update(scratch, 0, n);
        }
    }

    /** SHA-256 of a file's content, read in 64 KiB pieces. */
    public static byte[] ofFile(Path file) throws IOException {
        MessageDigest digest = newDigest();
        try (InputStream in = Files.newInputStream(file)) {
            byte[] buffer = new byte[1 << 16];
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                digest.update(buffer, 0, n);
            }
        }
        return digest.digest();
    }

    /** Whether two hashes are equal, in time that does not depend on where they differ. */
    public static boolean equal(byte[] a, byte[] b) {
        return MessageDigest.isEqual(a, b);
    }
}
