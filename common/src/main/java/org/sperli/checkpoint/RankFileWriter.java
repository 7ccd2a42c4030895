package org.sperli.checkpoint;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import org.sperli.Checkpointable;
import org.sperli.crypto.Sha256;
import org.sperli.protocol.JobId;
import org.sperli.protocol.Limits;

/**
 * Writes one rank file in a single pass over the state: an 80-byte placeholder, then the state as the program's
 * {@link Checkpointable} writes it (hashed on the way), then the real header at offset 0. What follows is
 * {@link UnsyncedRankFile#sync}: fsync, the SHA-256 of the whole file read back from the page cache (the header comes
 * first in the file but last in time, so the whole-file hash needs that second pass), and only then the rename of the
 * temporary name over the final one.
 */
final class RankFileWriter {
    private RankFileWriter() {
    }

    /**
     * Writes {@code tmp} in full and leaves it open for {@link UnsyncedRankFile#sync} to make durable and rename to
     * {@code target}. On any failure the temporary file is removed and the exception passed on: an IOException of the
     * file system, or whatever the state's writer threw.
     */
    static UnsyncedRankFile write(Path tmp, Path target, JobId job, long epoch, int rank, int size,
                                  Checkpointable state) throws IOException {
        FileChannel channel = DurableFiles.openTemporary(tmp);
        try {
            writeFully(channel, ByteBuffer.allocate(RankFileHeader.LENGTH), 0);
            channel.position(RankFileHeader.LENGTH);
            StateOutput out = new StateOutput(channel, Sha256.newDigest());
            state.writeCheckpoint(out);
            out.finish();
            RankFileHeader header = new RankFileHeader(Limits.VERSION, epoch, job, rank, size, out.length(),
                    out.sha256());
            writeFully(channel, ByteBuffer.wrap(header.toBytes()), 0);
            return new UnsyncedRankFile(channel, tmp, target);
        } catch (IOException | RuntimeException | Error e) {
            channel.close();
            Files.deleteIfExists(tmp);
            throw e;
        }
    }

    /** SHA-256 of a whole file, read in 1 MiB pieces. */
    static byte[] fileSha256(Path file) throws IOException {
        MessageDigest digest = Sha256.newDigest();
        ByteBuffer buffer = ByteBuffer.allocateDirect(StateOutput.BUFFER_BYTES);
        try (FileChannel channel = FileChannel.open(file)) {
            while (channel.read(buffer) >= 0) {
                buffer.flip();
                digest.update(buffer);
                buffer.clear();
            }
        }
        return digest.digest();
    }

    private static void writeFully(FileChannel channel, ByteBuffer bytes, long position) throws IOException {
        long at = position;
        while (bytes.hasRemaining()) {
            at += channel.write(bytes, at);
        }
    }
}
