package org.sperli.checkpoint;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * The one way checkpoint files reach the disk: write to the temporary name, fsync, rename over the final name, fsync
 * the directory. A crash at any moment leaves either the old final file or the new one, never a mix, and a temporary
 * name is the only thing a crash can leave half-written.
 *
 * <p>Directories this class creates are owner-only (0700) on POSIX file systems: a checkpoint holds a program's
 * state. Symbolic links are never followed when a tree is deleted.
 */
public final class DurableFiles {
    private static final Set<PosixFilePermission> OWNER_READ_WRITE = PosixFilePermissions.fromString("rw-------");
    private static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY_FILE =
            PosixFilePermissions.asFileAttribute(OWNER_READ_WRITE);

    private DurableFiles() {
    }

    /**
     * Opens {@code tmp} for writing from scratch: created, or truncated when an earlier try left it. The file is
     * readable by its owner only (0600), whatever the umask: a state may hold anything, like the PEM files.
     */
    public static FileChannel openTemporary(Path tmp) throws IOException {
        FileChannel channel = FileChannel.open(tmp, Set.of(StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE), OWNER_ONLY_FILE);
        try {
            // A file left by an earlier try keeps its mode on truncation; make it ours again.
            Files.setPosixFilePermissions(tmp, OWNER_READ_WRITE);
        } catch (IOException | UnsupportedOperationException e) {
            channel.close();
            throw e instanceof IOException io ? io : new IOException("cannot make " + tmp + " owner-only", e);
        }
        return channel;
    }

    /** Forces {@code channel}'s bytes and metadata to the disk, then closes it. */
    public static void syncAndClose(FileChannel channel) throws IOException {
        try (channel) {
            channel.force(true);
        }
    }

    /**
     * Renames {@code tmp} over {@code target} atomically and fsyncs the directory, so that the rename itself survives
     * a crash. Both names must be in the same directory.
     */
    public static void moveIntoPlace(Path tmp, Path target) throws IOException {
        try {
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            throw new IOException("the file system cannot rename " + tmp + " atomically", e);
        }
        syncDirectory(target.getParent());
    }

    /** {@code content} as the whole of {@code target}, through {@code tmp}. */
    public static void writeAtomically(Path tmp, Path target, byte[] content) throws IOException {
        FileChannel channel = openTemporary(tmp);
        try {
            ByteBuffer b = ByteBuffer.wrap(content);
            while (b.hasRemaining()) {
                channel.write(b);
            }
        } catch (IOException e) {
            channel.close();
            throw e;
        }
        syncAndClose(channel);
        moveIntoPlace(tmp, target);
    }

    /** Forces a directory's entries (new, renamed and deleted names) to the disk. */
    public static void syncDirectory(Path dir) throws IOException {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }

    /**
     * Creates {@code dir} and any missing parent, each owner-only, and fsyncs the parent of every directory it made.
     * An existing directory is kept as it is.
     */
    public static void createDirectories(Path dir) throws IOException {
        Path absolute = dir.toAbsolutePath();
        if (Files.isDirectory(absolute)) {
            return;
        }
        Path parent = absolute.getParent();
        if (parent != null) {
            createDirectories(parent);
        }
        try {
            if (Files.getFileStore(parent).supportsFileAttributeView("posix")) {
                Files.createDirectory(absolute,
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            } else {
                Files.createDirectory(absolute);
            }
        } catch (FileAlreadyExistsException e) {
            if (!Files.isDirectory(absolute)) {
                throw e;
            }
            return;
        }
        syncDirectory(parent);
    }

    /** Deletes a file if it is there and fsyncs its directory when something was deleted. */
    public static boolean deleteDurably(Path file) throws IOException {
        boolean deleted = Files.deleteIfExists(file);
        if (deleted) {
            syncDirectory(file.getParent());
        }
        return deleted;
    }

    /** Deletes {@code dir} and everything below it; links are removed, never followed. */
    public static void deleteTree(Path dir) throws IOException {
        if (Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            // Ranks on one host may share the directory and delete the same old epoch at once: gone is fine.
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
                for (Path entry : entries) {
                    deleteTree(entry);
                }
            } catch (NoSuchFileException e) {
                return;
            }
        }
        try {
            Files.delete(dir);
        } catch (NoSuchFileException e) {
            // already gone: the goal is reached
        }
    }

    /** An I/O failure in words, without the exception's class name: what is in the way, and where. */
    public static String reason(IOException e) {
        if (e instanceof FileAlreadyExistsException f) {
            return f.getFile() + " is in the way (a file where a directory belongs)";
        }
        if (e instanceof NoSuchFileException f) {
            return f.getFile() + " does not exist";
        }
        if (e instanceof AccessDeniedException f) {
            return "permission denied: " + f.getFile();
        }
        if (e instanceof NotDirectoryException f) {
            return f.getFile() + " is not a directory";
        }
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }
}
