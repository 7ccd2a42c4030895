package org.sperli.checkpoint;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.crypto.Sha256;
import org.sperli.protocol.JobId;

/**
 * The resume check of a rank file (or buddy copy) on disk, done twice as the protocol asks: the state against the
 * SHA-256 in the header, and the whole file against the COMMIT entry. The file is streamed; only when the state is
 * to be loaded is an array of its length allocated, and only after the header passed and the length is below
 * {@link #MAX_LOADED_STATE}.
 *
 * <p>Codes: H1619 for a missing, unreadable or cut file and a header that is not the one expected, H1623 for another
 * size, H1620 for either hash.
 */
public final class RankFileReader {
    /** Largest state {@link #check} loads: the largest Java array. */
    public static final long MAX_LOADED_STATE = Integer.MAX_VALUE - 8;

    private static final int READ_BYTES = 1 << 20;

    private RankFileReader() {
    }

    /** A rank file that passed both checks: its header, the SHA-256 of the whole file, and the state when loaded. */
    public record Checked(RankFileHeader header, byte[] fileSha256, byte[] stateOrNull) {
    }

    /**
     * Checks {@code file} as the rank file of {@code rank} in {@code epoch} of a job of {@code size}; with
     * {@code commitOrNull} also its whole-file hash against the COMMIT entry of {@code rank}. With {@code load} the
     * state is returned; otherwise it is only hashed.
     */
    public static Checked check(Path file, JobId job, long epoch, int rank, int size, CommitFile commitOrNull,
                                boolean load) {
        try (FileChannel channel = FileChannel.open(file)) {
            long length = channel.size();
            if (length < RankFileHeader.LENGTH) {
                throw refuse(file, "length=" + length + ", cut inside the " + RankFileHeader.LENGTH + "-byte header");
            }
            ByteBuffer head = ByteBuffer.allocate(RankFileHeader.LENGTH);
            readFully(channel, head, file);
            RankFileHeader header = RankFileHeader.read(head.flip());
            header.expect(job, epoch, rank, size, length);
            MessageDigest stateDigest = Sha256.newDigest();
            MessageDigest fileDigest = Sha256.newDigest();
            fileDigest.update(head.array());
            byte[] state = null;
            if (load) {
                if (header.stateLength() > MAX_LOADED_STATE) {
                    throw refuse(file, "state length=" + header.stateLength() + ", at most " + MAX_LOADED_STATE
                            + " can be restored");
                }
                state = new byte[(int) header.stateLength()];
                readFully(channel, ByteBuffer.wrap(state), file);
                stateDigest.update(state);
                fileDigest.update(state);
            } else {
                ByteBuffer buffer = ByteBuffer.allocateDirect(READ_BYTES);
                for (long left = header.stateLength(); left > 0; left -= buffer.limit()) {
                    buffer.clear().limit((int) Math.min(READ_BYTES, left));
                    readFully(channel, buffer, file);
                    stateDigest.update(buffer.flip());
                    fileDigest.update(buffer.rewind());
                }
            }
            byte[] stateSha256 = stateDigest.digest();
            if (!MessageDigest.isEqual(stateSha256, header.stateSha256())) {
                throw new SperliException(ErrorCode.H1620, file.getFileName() + " state SHA-256="
                        + RankFiles.hex(stateSha256) + ", header says " + RankFiles.hex(header.stateSha256()));
            }
            byte[] fileSha256 = fileDigest.digest();
            if (commitOrNull != null) {
                commitOrNull.expectRankFile(rank, fileSha256);
            }
            return new Checked(header, fileSha256, state);
        } catch (NoSuchFileException e) {
            throw refuse(file, "is missing");
        } catch (IOException e) {
            throw refuse(file, "cannot be read: " + e.getMessage());
        }
    }

    private static void readFully(FileChannel channel, ByteBuffer into, Path file) throws IOException {
        while (into.hasRemaining()) {
            if (channel.read(into) < 0) {
                throw refuse(file, "ended early: it shrank while it was read");
            }
        }
    }

    private static SperliException refuse(Path file, String reason) {
        return new SperliException(ErrorCode.H1619, file.getFileName() + " " + reason);
    }
}
