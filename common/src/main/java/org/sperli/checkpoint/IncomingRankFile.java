package org.sperli.checkpoint;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.crypto.Sha256;
import org.sperli.protocol.JobId;

/**
 * A rank file arriving in chunks from another rank (a buddy copy, or a rank's own file fetched from its buddy),
 * written to its temporary name as it comes and hashed on the way; nothing is held in memory but the 80-byte header.
 *
 * <p>The header is checked as soon as its 80 bytes are in, against this job, epoch, rank and size and against the
 * total the sender announced (H1619, H1623), so a wrong file is refused before its state is written. {@link #finish}
 * checks the state hash (H1620) and, when a COMMIT is given, the whole-file hash against its entry (H1620); only
 * then is the file fsynced and renamed into place. {@link #close} without {@link #finish} removes the temporary file.
 * The order of chunks (offset = bytes so far, a fixed total) is the caller's to enforce.
 *
 * <p>Each chunk is copied once, into a direct staging buffer, and both digests and the file write read it there. A
 * chunk as decoded is a read-only heap view: a digest cannot reach its array (the native one copies every such update
 * into a fresh array) and a channel write copies it into a temporary direct buffer of the JDK's.
 */
public final class IncomingRankFile implements AutoCloseable {
    /** Bytes copied, hashed and written at a time: a quarter of the largest chunk, a few write calls per chunk. */
    static final int STAGING_BYTES = 256 * 1024;

    private final Path tmp;
    private final Path target;
    private final JobId job;
    private final long epoch;
    private final int rank;
    private final int size;
    private final FileChannel channel;
    private final MessageDigest stateDigest = Sha256.newDigest();
    private final MessageDigest fileDigest = Sha256.newDigest();
    private final ByteBuffer head = ByteBuffer.allocate(RankFileHeader.LENGTH);
    private final ByteBuffer staging = ByteBuffer.allocateDirect(STAGING_BYTES);
    private RankFileHeader header;
    private long received;
    private boolean done;

    IncomingRankFile(Path tmp, Path target, JobId job, long epoch, int rank, int size) throws IOException {
        this.tmp = tmp;
        this.target = target;
        this.job = job;
        this.epoch = epoch;
        this.rank = rank;
        this.size = size;
        this.channel = DurableFiles.openTemporary(tmp);
    }

    /** Appends the chunk's remaining bytes (the position is moved) of a file of {@code total} bytes. */
    public void accept(ByteBuffer chunk, long total) {
        ByteBuffer rest = chunk.duplicate();
        try {
            while (rest.hasRemaining()) {
                int n = Math.min(rest.remaining(), staging.capacity());
                staging.clear();
                staging.put(rest.slice(rest.position(), n)).flip();
                rest.position(rest.position() + n);
                hash(total);
                received += n;
                while (staging.hasRemaining()) {
                    channel.write(staging);
                }
            }
            chunk.position(chunk.limit());
        } catch (IOException e) {
            throw new SperliException(ErrorCode.H1619, tmp.getFileName() + " cannot be written: " + e.getMessage());
        }
    }

    /** Feeds the staged bytes to the whole-file digest, to the header until it is complete, then to the state's. */
    private void hash(long total) {
        fileDigest.update(staging.duplicate());
        ByteBuffer state = staging.duplicate();
        if (header == null) {
            int n = Math.min(state.remaining(), head.remaining());
            head.put(state.slice(state.position(), n));
            state.position(state.position() + n);
            if (head.hasRemaining()) {
                return;
            }
            header = RankFileHeader.read(head.flip());
            header.expect(job, epoch, rank, size, total);
        }
        stateDigest.update(state);
    }

    /**
     * Ends the file: header present, state hash as the header says, whole-file hash as {@code commitOrNull} lists it;
     * fsync, rename into place, fsync the directory. Returns the SHA-256 of the whole file.
     */
    public byte[] finish(CommitFile commitOrNull) {
        if (header == null) {
            throw new SperliException(ErrorCode.H1619, tmp.getFileName() + " ended after " + received
                    + " bytes, inside the " + RankFileHeader.LENGTH + "-byte header");
        }
        byte[] stateSha256 = stateDigest.digest();
        if (!MessageDigest.isEqual(stateSha256, header.stateSha256())) {
            throw new SperliException(ErrorCode.H1620, "received rank file " + rank + " state SHA-256="
                    + RankFiles.hex(stateSha256) + ", header says " + RankFiles.hex(header.stateSha256()));
        }
        byte[] fileSha256 = fileDigest.digest();
        if (commitOrNull != null) {
            commitOrNull.expectRankFile(rank, fileSha256);
        }
        try {
            DurableFiles.syncAndClose(channel);
            DurableFiles.moveIntoPlace(tmp, target);
        } catch (IOException e) {
            throw new SperliException(ErrorCode.H1619, target.getFileName() + " cannot be stored: " + e.getMessage());
        }
        done = true;
        return fileSha256;
    }

    /** Where the file ends up. */
    public Path target() {
        return target;
    }

    /** Removes the temporary file unless {@link #finish} stored it. */
    @Override
    public void close() {
        if (done) {
            return;
        }
        try {
            channel.close();
            Files.deleteIfExists(tmp);
        } catch (IOException e) {
            // A leftover temporary name is harmless: the next try truncates it and readers never look at it.
        }
    }
}
