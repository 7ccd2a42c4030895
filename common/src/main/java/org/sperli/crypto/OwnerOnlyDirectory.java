package org.sperli.crypto;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;

/**
 * A fresh directory only its owner may enter (0700), holding files only its owner may read (0600), deleted with all it
 * holds by {@link #close}. A rank keeps the three PEM texts of its description here for as long as it makes
 * connections.
 *
 * <p>Directory and files are created with their permissions in the same system call ({@code mkdir(2)} and
 * {@code open(2)} with a mode), never widened or narrowed afterwards, so there is no moment at which another user could
 * open them; the umask can only remove bits. A file system without POSIX permissions is refused, because the promise
 * could not be kept there ({@link UnsupportedOperationException} from {@code create}).
 */
public final class OwnerOnlyDirectory implements AutoCloseable {
    private static final Set<PosixFilePermission> DIRECTORY_MODE = PosixFilePermissions.fromString("rwx------");
    private static final Set<PosixFilePermission> FILE_MODE = PosixFilePermissions.fromString("rw-------");

    private final Path path;
    private volatile boolean closed;

    private OwnerOnlyDirectory(Path path) {
        this.path = path;
    }

    /** A new directory in the system's temporary directory, its name starting with {@code prefix}. */
    public static OwnerOnlyDirectory create(String prefix) throws IOException {
        return new OwnerOnlyDirectory(Files.createTempDirectory(prefix, directoryMode()));
    }

    /** A new directory inside {@code parent}, its name starting with {@code prefix}. */
    public static OwnerOnlyDirectory create(Path parent, String prefix) throws IOException {
        return new OwnerOnlyDirectory(Files.createTempDirectory(parent, prefix, directoryMode()));
    }

    /** The directory. */
    public Path path() {
        return path;
    }

    /** Writes a new file {@code name} (a plain name, no separator) with mode 0600; an existing file is refused. */
    public Path write(String name, byte[] content) throws IOException {
        if (closed) {
            throw new IllegalStateException("directory already deleted: " + path);
        }
        Path file = path.resolve(checkedName(name));
        // CREATE_NEW fails on anything already there, a planted symbolic link included.
        try (SeekableByteChannel channel = Files.newByteChannel(file,
                EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                PosixFilePermissions.asFileAttribute(FILE_MODE))) {
            ByteBuffer buffer = ByteBuffer.wrap(content);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
        }
        return file;
    }

    /** Writes a new file {@code name} holding {@code text} as UTF-8 (PEM text is ASCII). */
    public Path write(String name, String text) throws IOException {
        return write(name, text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Deletes the directory and everything in it; a second call does nothing but wait until the first is through.
     * Symbolic links are deleted, never followed. The wait matters to a process that ends from two threads at once (a
     * host agent's SIGTERM hook and the end of its control stream): the one that halts the JVM must not cut the
     * other's deletion short.
     */
    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        deleteTree(path);
    }

    /**
     * Deletes {@code directory} and everything in it, deleting symbolic links rather than following them; a tree that
     * is already gone is fine.
     */
    public static void deleteTree(Path directory) throws IOException {
        try {
            Files.walkFileTree(directory, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException failure) throws IOException {
                    if (failure != null) {
                        throw failure;
                    }
                    Files.deleteIfExists(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (NoSuchFileException alreadyGone) {
            // Someone removed it first; what matters is that it is gone.
        }
    }

    @Override
    public String toString() {
        return "OwnerOnlyDirectory[" + path + (closed ? ", deleted" : "") + "]";
    }

    private static FileAttribute<Set<PosixFilePermission>> directoryMode() {
        return PosixFilePermissions.asFileAttribute(DIRECTORY_MODE);
    }

    private static String checkedName(String name) {
        if (name.isEmpty() || name.equals(".") || name.equals("..") || name.indexOf('/') >= 0
                || name.indexOf('\\') >= 0 || name.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("file name=" + name + ", expected a plain name without separators");
        }
        return name;
    }
}
