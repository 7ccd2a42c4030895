package org.sperli.launcher.checkpoint;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import org.sperli.checkpoint.CommitFile;
import org.sperli.checkpoint.EpochLayout;
import org.sperli.checkpoint.RankFileHeader;
import org.sperli.checkpoint.RankFiles;
import org.sperli.checkpoint.inspect.Inspector;
import org.sperli.crypto.CompositeSig;
import org.sperli.crypto.Sha256;
import org.sperli.protocol.JobId;

/**
 * Builds checkpoint directories as the runtime lays them out (protocol section 9.1), with the common codecs and a
 * generated job key: rank files, buddy copies, a signed COMMIT and {@code job.pub}. Tests then break one thing.
 */
final class CheckpointDirs {
    private static final SecureRandom RANDOM = new SecureRandom();

    final Path dir;
    final JobId job;
    final CompositeSig.KeyPair key;
    final EpochLayout layout;

    private CheckpointDirs(Path dir, JobId job, CompositeSig.KeyPair key) {
        this.dir = dir;
        this.job = job;
        this.key = key;
        this.layout = EpochLayout.of(dir, job);
    }

    /** A new job under {@code dir} with a fresh key, its job.pub written as rank 0 would. */
    static CheckpointDirs create(Path dir) throws IOException {
        CheckpointDirs d = new CheckpointDirs(dir, JobId.random(RANDOM), CompositeSig.generate(RANDOM));
        Files.createDirectories(d.layout.jobDir());
        Files.write(d.layout.jobDir().resolve(Inspector.PUBLIC_KEY_FILE), d.key.publicKey());
        return d;
    }

    /** A deterministic state per epoch and rank, of a few hundred bytes. */
    static byte[] state(long epoch, int rank) {
        return ("state of rank " + rank + " at epoch " + epoch + " ").repeat(10).getBytes(StandardCharsets.US_ASCII);
    }

    /** The whole rank file of {@code rank}: header then state, {@code headerSize} in the header. */
    byte[] rankFile(long epoch, int rank, int headerSize) {
        byte[] state = state(epoch, rank);
        RankFileHeader header = RankFileHeader.forState(job, epoch, rank, headerSize, ByteBuffer.wrap(state));
        ByteBuffer file = ByteBuffer.allocate(RankFileHeader.LENGTH + state.length);
        header.write(file);
        file.put(state);
        return file.array();
    }

    /** Writes every rank file and buddy copy of a {@code size}-rank epoch, without COMMIT; returns the file hashes. */
    List<byte[]> writeFiles(long epoch, int size) throws IOException {
        Files.createDirectories(layout.epochDir(epoch));
        List<byte[]> hashes = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            byte[] file = rankFile(epoch, r, size);
            Files.write(layout.rankFile(epoch, r), file);
            if (size > 1) {
                Files.write(layout.buddyFile(epoch, r), file);
            }
            hashes.add(Sha256.of(ByteBuffer.wrap(file)));
        }
        return hashes;
    }

    /** Writes the COMMIT of {@code epoch} over {@code hashes}, signed with {@code signer}'s secret key. */
    void writeCommit(long epoch, List<byte[]> hashes, CompositeSig.KeyPair signer) throws IOException {
        CommitFile unsigned = CommitFile.unsigned(epoch, job, hashes);
        byte[] signature = CompositeSig.sign(signer.secretKey(), unsigned.signedPart(), CompositeSig.CONTEXT_COMMIT);
        Files.write(layout.commit(epoch), unsigned.withSignature(signature).toBytes());
    }

    /** A complete, committed epoch of {@code size} ranks signed with the job key. */
    void writeEpoch(long epoch, int size) throws IOException {
        writeCommit(epoch, writeFiles(epoch, size), key);
    }

    /** Flips one bit of the byte at {@code offset} of {@code file}. */
    static void flipByte(Path file, int offset) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        bytes[offset] ^= 0x01;
        Files.write(file, bytes);
    }

    static CompositeSig.KeyPair otherKey() {
        return CompositeSig.generate(RANDOM);
    }
}
