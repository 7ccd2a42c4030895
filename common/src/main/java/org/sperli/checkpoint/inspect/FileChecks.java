package org.sperli.checkpoint.inspect;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.checkpoint.CommitFile;
import org.sperli.checkpoint.CommitSignatures;
import org.sperli.checkpoint.RankFileHeader;
import org.sperli.checkpoint.RankFileReader;
import org.sperli.checkpoint.RankFiles;
import org.sperli.checkpoint.inspect.Inspection.Commit;
import org.sperli.checkpoint.inspect.Inspection.FileStatus;
import org.sperli.checkpoint.inspect.Inspection.RankFile;
import org.sperli.checkpoint.inspect.Inspection.SignatureCheck;
import org.sperli.crypto.CompositeSig;
import org.sperli.protocol.CommitLayout;
import org.sperli.protocol.JobId;
import org.sperli.protocol.Limits;

/**
 * The checks of one file with the resume's own rules: a rank file or buddy copy through {@link RankFileReader}
 * (header H1619, expectations H1619/H1623, state hash H1620, COMMIT entry H1620; streamed, nothing loaded), a COMMIT
 * through {@link CommitSignatures#verify} (layout H1621, signature H1621, job and epoch H1621, size H1623). Before
 * either, what the inspector adds: a symbolic link is refused, never followed, and a COMMIT's length is bounded
 * before it is read.
 */
final class FileChecks {
    private FileChecks() {
    }

    /** A COMMIT's verdict and, when it holds, the file (to compare rank files with its entries). */
    record CommitResult(Commit report, CommitFile fileOrNull, SperliException refusalOrNull) {
        boolean holds() {
            return report.status() == FileStatus.OK || report.status() == FileStatus.UNVERIFIED;
        }
    }

    /**
     * Checks {@code file} as the rank file (or buddy copy) of {@code rank} in {@code epoch} of {@code job};
     * {@code sizeOrNull} null checks against the header's own size, {@code commitOrNull} null skips the COMMIT entry.
     */
    static RankFile rankFile(Path file, JobId job, long epoch, int rank, Long sizeOrNull, CommitFile commitOrNull) {
        String name = file.getFileName().toString();
        String commitHex = commitOrNull == null ? null : RankFiles.hex(commitOrNull.rankFileSha256(rank));
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return new RankFile(name, null, FileStatus.MISSING, null, "missing", null, null, null, commitHex);
        } catch (IOException e) {
            return new RankFile(name, null, FileStatus.UNREADABLE, ErrorCode.H1619, unreadable(e), null, null, null,
                    commitHex);
        }
        long length = attributes.size();
        String notRegular = notRegular(attributes);
        if (notRegular != null) {
            return new RankFile(name, length, FileStatus.REFUSED, ErrorCode.H1619, notRegular, null, null, null,
                    commitHex);
        }
        RankFileHeader header = headerOrNull(file);
        long size = sizeOrNull != null ? sizeOrNull : header != null ? header.size() : Limits.MIN_SIZE;
        Long stateLength = header == null ? null : header.stateLength();
        String headerSha = header == null ? null : RankFiles.hex(header.stateSha256());
        try {
            RankFileReader.Checked checked = RankFileReader.check(file, job, epoch, rank,
                    (int) Math.min(size, Integer.MAX_VALUE), commitOrNull, false);
            return new RankFile(name, length, FileStatus.OK, null, commitOrNull != null ? "matches the COMMIT"
                    : "header and state hash hold", stateLength, headerSha, RankFiles.hex(checked.fileSha256()),
                    commitHex);
        } catch (SperliException e) {
            return new RankFile(name, length, FileStatus.REFUSED, e.code(), e.reason(), stateLength, headerSha, null,
                    commitHex);
        }
    }

    /** The header of {@code file} for the report, or null when it cannot be read as one (the check then says why). */
    private static RankFileHeader headerOrNull(Path file) {
        ByteBuffer first80 = ByteBuffer.allocate(RankFileHeader.LENGTH);
        try (SeekableByteChannel in = Files.newByteChannel(file, StandardOpenOption.READ,
                LinkOption.NOFOLLOW_LINKS)) {
            return readFully(in, first80) ? RankFileHeader.read(first80.flip()) : null;
        } catch (IOException | SperliException e) {
            return null;
        }
    }

    /**
     * Checks {@code file} as the COMMIT of {@code epoch} of {@code job}: layout, then the signature under
     * {@code publicKeyOrNull} (not checked when null), then job id and epoch, then the size ({@code sizeOrNull}, or
     * the COMMIT's own when null).
     */
    static CommitResult commit(Path file, JobId job, long epoch, Long sizeOrNull, byte[] publicKeyOrNull) {
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return new CommitResult(new Commit(null, FileStatus.MISSING, null, "missing", null, null), null, null);
        } catch (IOException e) {
            return unreadableCommit(null, e);
        }
        long length = attributes.size();
        String notRegular = notRegular(attributes);
        if (notRegular != null) {
            return refusedCommit(length, new SperliException(ErrorCode.H1621, "COMMIT is " + notRegular), null,
                    null);
        }
        if (length < CommitLayout.MIN_LENGTH || length > CommitLayout.MAX_LENGTH) {
            return refusedCommit(length, new SperliException(ErrorCode.H1621, "COMMIT length=" + length
                    + ", expected 2522 + 32 x size (" + CommitLayout.MIN_LENGTH + ".." + CommitLayout.MAX_LENGTH + ")"),
                    null, null);
        }
        ByteBuffer bytes = ByteBuffer.allocate((int) length);
        try (SeekableByteChannel in = Files.newByteChannel(file, StandardOpenOption.READ,
                LinkOption.NOFOLLOW_LINKS)) {
            if (!readFully(in, bytes) || in.read(ByteBuffer.allocate(1)) > 0) {
                return refusedCommit(length, new SperliException(ErrorCode.H1621,
                        "COMMIT changed length while it was read"), null, null);
            }
        } catch (IOException e) {
            return unreadableCommit(length, e);
        }
        bytes.flip();
        CommitFile decoded;
        try {
            decoded = CommitFile.read(bytes);
        } catch (SperliException e) {
            return refusedCommit(length, e, null, null);
        }
        SignatureCheck signature = publicKeyOrNull == null ? SignatureCheck.NO_KEY
                : CompositeSig.verify(publicKeyOrNull, decoded.signedPart(), decoded.signature(),
                        CompositeSig.CONTEXT_COMMIT) ? SignatureCheck.VALID : SignatureCheck.INVALID;
        long size = sizeOrNull != null ? sizeOrNull : decoded.size();
        try {
            if (publicKeyOrNull != null) {
                CommitSignatures.verify(bytes, publicKeyOrNull, job, epoch, size);
            } else {
                decoded.expect(job, epoch, size);
            }
        } catch (SperliException e) {
            return refusedCommit(length, e, decoded.size(), signature);
        }
        Commit report = signature == SignatureCheck.VALID
                ? new Commit(length, FileStatus.OK, null, "signature verified", decoded.size(), signature)
                : new Commit(length, FileStatus.UNVERIFIED, null, "signature not checked: no job public key",
                        decoded.size(), signature);
        return new CommitResult(report, decoded, null);
    }

    private static CommitResult refusedCommit(long length, SperliException refusal, Long size,
                                              SignatureCheck signature) {
        return new CommitResult(new Commit(length, FileStatus.REFUSED, refusal.code(), refusal.reason(), size,
                signature), null, refusal);
    }

    /** An unreadable COMMIT counts as the runtime counts it: H1621. */
    private static CommitResult unreadableCommit(Long length, IOException e) {
        SperliException refusal = new SperliException(ErrorCode.H1621, "COMMIT " + unreadable(e));
        return new CommitResult(new Commit(length, FileStatus.UNREADABLE, refusal.code(), refusal.reason(), null,
                null), null, refusal);
    }

    /** Why an entry that should be a file is not read, or null for a regular file. */
    static String notRegular(BasicFileAttributes attributes) {
        if (attributes.isSymbolicLink()) {
            return "a symbolic link, not followed";
        }
        return attributes.isRegularFile() ? null : "not a regular file";
    }

    /** Fills {@code b}; false when the channel ends first. */
    static boolean readFully(SeekableByteChannel in, ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            if (in.read(b) < 0) {
                return false;
            }
        }
        return true;
    }

    static String unreadable(IOException e) {
        String message = e.getMessage();
        return "cannot be read: " + e.getClass().getSimpleName() + (message == null ? "" : " " + message);
    }
}
