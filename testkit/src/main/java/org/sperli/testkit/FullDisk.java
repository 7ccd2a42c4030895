package org.sperli.testkit;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.AccessMode;
import java.nio.file.CopyOption;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.WatchService;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.nio.file.spi.FileSystemProvider;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A checkpoint directory on a disk that fills up: the directory itself, seen through a file system whose writes fail
 * with {@code No space left on device}, as a full disk's do, once a given number of bytes has been written. A small
 * real file system (a tmpfs of a few KiB, a loop device) needs privileges a test does not have, and a read-only
 * directory does not stop root; this stand-in needs nothing. Every file of a checkpoint is written through
 * {@code java.nio.file} ({@link FileChannel#open}, {@code Files.*}), so the rank files, the buddy copies, COMMIT and
 * {@code job.pub} all meet the full disk where a real one would stop them. Space is counted as a disk counts it (in
 * bytes, not blocks): a file that grows takes space, a file deleted, truncated or replaced by a rename gives it back,
 * bytes written over bytes a file already has take none; directories take none. Reads, renames, deletes and
 * directories are the real ones.
 */
final class FullDisk extends FileSystemProvider {
    private static final String NO_SPACE = "No space left on device";

    private final FileSystemProvider base;
    private final FileSystem baseSystem;
    private final AtomicLong bytesLeft;
    private final Disk disk = new Disk();

    private FullDisk(Path dir, long bytesLeft) {
        this.baseSystem = dir.getFileSystem();
        this.base = baseSystem.provider();
        this.bytesLeft = new AtomicLong(bytesLeft);
    }

    /** {@code dir} on a disk with {@code bytesLeft} bytes free for the run. */
    static Path of(Path dir, long bytesLeft) {
        if (bytesLeft < 0) {
            throw new IllegalArgumentException("bytes left " + bytesLeft + " is negative");
        }
        FullDisk provider = new FullDisk(dir, bytesLeft);
        return provider.wrap(dir.toAbsolutePath());
    }

    /** {@code n} bytes are free again. */
    private void give(long n) {
        if (n > 0) {
            bytesLeft.addAndGet(n);
        }
    }

    /** The size of the regular file at {@code path} (a real path), 0 when there is none. */
    private long sizeOf(Path path) {
        try {
            BasicFileAttributes a = base.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            return a.isRegularFile() ? a.size() : 0;
        } catch (IOException none) {
            return 0;
        }
    }

    /** Takes {@code n} bytes off what is left, or fails as a full disk does. */
    private void take(long n) throws IOException {
        if (n <= 0) {
            return;
        }
        long left;
        do {
            left = bytesLeft.get();
            if (left < n) {
                throw new IOException(NO_SPACE);
            }
        } while (!bytesLeft.compareAndSet(left, left - n));
    }

    Path wrap(Path p) {
        return p == null ? null : new OnDisk(p);
    }

    /** The paths of {@code paths}, each on this file system. */
    Iterator<Path> wrapped(Iterator<Path> paths) {
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return paths.hasNext();
            }

            @Override
            public Path next() {
                return wrap(paths.next());
            }
        };
    }

    Path unwrap(Path p) {
        if (p instanceof OnDisk on) {
            return on.path;
        }
        if (p.getFileSystem() != baseSystem) {
            throw new java.nio.file.ProviderMismatchException(p.toString());
        }
        return p;
    }

    @Override
    public String getScheme() {
        return "sperli-full-disk";
    }

    @Override
    public FileSystem newFileSystem(URI uri, Map<String, ?> env) {
        throw new UnsupportedOperationException("a full disk is made by the test kit only");
    }

    @Override
    public FileSystem getFileSystem(URI uri) {
        return disk;
    }

    @Override
    public Path getPath(URI uri) {
        return wrap(base.getPath(uri));
    }

    @Override
    public SeekableByteChannel newByteChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
            throws IOException {
        return new Channel(base.newFileChannel(unwrap(path), options, attrs));
    }

    @Override
    public FileChannel newFileChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
            throws IOException {
        return new Channel(base.newFileChannel(unwrap(path), options, attrs));
    }

    @Override
    public DirectoryStream<Path> newDirectoryStream(Path dir, DirectoryStream.Filter<? super Path> filter)
            throws IOException {
        DirectoryStream<Path> entries = base.newDirectoryStream(unwrap(dir), p -> filter.accept(wrap(p)));
        return new DirectoryStream<>() {
            @Override
            public Iterator<Path> iterator() {
                return wrapped(entries.iterator());
            }

            @Override
            public void close() throws IOException {
                entries.close();
            }
        };
    }

    @Override
    public void createDirectory(Path dir, FileAttribute<?>... attrs) throws IOException {
        base.createDirectory(unwrap(dir), attrs);
    }

    @Override
    public void delete(Path path) throws IOException {
        long size = sizeOf(unwrap(path));
        base.delete(unwrap(path));
        give(size);
    }

    @Override
    public void copy(Path source, Path target, CopyOption... options) throws IOException {
        take(base.readAttributes(unwrap(source), BasicFileAttributes.class).size());
        base.copy(unwrap(source), unwrap(target), options);
    }

    @Override
    public void move(Path source, Path target, CopyOption... options) throws IOException {
        long replaced = unwrap(source).equals(unwrap(target)) ? 0 : sizeOf(unwrap(target));
        base.move(unwrap(source), unwrap(target), options);
        give(replaced);
    }

    @Override
    public boolean isSameFile(Path path, Path path2) throws IOException {
        return base.isSameFile(unwrap(path), unwrap(path2));
    }

    @Override
    public boolean isHidden(Path path) throws IOException {
        return base.isHidden(unwrap(path));
    }

    @Override
    public FileStore getFileStore(Path path) throws IOException {
        return base.getFileStore(unwrap(path));
    }

    @Override
    public void checkAccess(Path path, AccessMode... modes) throws IOException {
        base.checkAccess(unwrap(path), modes);
    }

    @Override
    public <V extends FileAttributeView> V getFileAttributeView(Path path, Class<V> type, LinkOption... options) {
        return base.getFileAttributeView(unwrap(path), type, options);
    }

    @Override
    public <A extends BasicFileAttributes> A readAttributes(Path path, Class<A> type, LinkOption... options)
            throws IOException {
        return base.readAttributes(unwrap(path), type, options);
    }

    @Override
    public Map<String, Object> readAttributes(Path path, String attributes, LinkOption... options)
            throws IOException {
        return base.readAttributes(unwrap(path), attributes, options);
    }

    @Override
    public void setAttribute(Path path, String attribute, Object value, LinkOption... options) throws IOException {
        base.setAttribute(unwrap(path), attribute, value, options);
    }

    /** A file of the full disk: every write takes its bytes off what is left first. */
    private final class Channel extends FileChannel {
        private final FileChannel file;

        Channel(FileChannel file) {
            this.file = file;
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            return file.read(dst);
        }

        @Override
        public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
            return file.read(dsts, offset, length);
        }

        @Override
        public synchronized int write(ByteBuffer src) throws IOException {
            grow(file.position(), src.remaining());
            return file.write(src);
        }

        @Override
        public synchronized long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
            long n = 0;
            for (int i = offset; i < offset + length; i++) {
                n += srcs[i].remaining();
            }
            grow(file.position(), n);
            return file.write(srcs, offset, length);
        }

        /** Takes the space a write of {@code n} bytes at {@code position} adds to the file. */
        private void grow(long position, long n) throws IOException {
            take(position + n - file.size());
        }

        @Override
        public long position() throws IOException {
            return file.position();
        }

        @Override
        public FileChannel position(long newPosition) throws IOException {
            file.position(newPosition);
            return this;
        }

        @Override
        public long size() throws IOException {
            return file.size();
        }

        @Override
        public synchronized FileChannel truncate(long size) throws IOException {
            long before = file.size();
            file.truncate(size);
            give(before - file.size());
            return this;
        }

        @Override
        public void force(boolean metaData) throws IOException {
            file.force(metaData);
        }

        @Override
        public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
            return file.transferTo(position, count, target);
        }

        @Override
        public synchronized long transferFrom(ReadableByteChannel src, long position, long count)
                throws IOException {
            grow(position, count);
            return file.transferFrom(src, position, count);
        }

        @Override
        public int read(ByteBuffer dst, long position) throws IOException {
            return file.read(dst, position);
        }

        @Override
        public synchronized int write(ByteBuffer src, long position) throws IOException {
            grow(position, src.remaining());
            return file.write(src, position);
        }

        @Override
        public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
            if (mode != MapMode.READ_ONLY) {
                grow(position, size);
            }
            return file.map(mode, position, size);
        }

        @Override
        public FileLock lock(long position, long size, boolean shared) throws IOException {
            return file.lock(position, size, shared);
        }

        @Override
        public FileLock tryLock(long position, long size, boolean shared) throws IOException {
            return file.tryLock(position, size, shared);
        }

        @Override
        protected void implCloseChannel() throws IOException {
            file.close();
        }
    }

    /** The full disk's file system: the real one's names, roots and stores. */
    private final class Disk extends FileSystem {
        @Override
        public FileSystemProvider provider() {
            return FullDisk.this;
        }

        @Override
        public void close() {
            throw new UnsupportedOperationException("the full disk closes with its run");
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public boolean isReadOnly() {
            return false;
        }

        @Override
        public String getSeparator() {
            return baseSystem.getSeparator();
        }

        @Override
        public Iterable<Path> getRootDirectories() {
            return () -> wrapped(baseSystem.getRootDirectories().iterator());
        }

        @Override
        public Iterable<FileStore> getFileStores() {
            return baseSystem.getFileStores();
        }

        @Override
        public Set<String> supportedFileAttributeViews() {
            return baseSystem.supportedFileAttributeViews();
        }

        @Override
        public Path getPath(String first, String... more) {
            return wrap(baseSystem.getPath(first, more));
        }

        @Override
        public PathMatcher getPathMatcher(String syntaxAndPattern) {
            PathMatcher matcher = baseSystem.getPathMatcher(syntaxAndPattern);
            return p -> matcher.matches(unwrap(p));
        }

        @Override
        public UserPrincipalLookupService getUserPrincipalLookupService() {
            return baseSystem.getUserPrincipalLookupService();
        }

        @Override
        public WatchService newWatchService() {
            throw new UnsupportedOperationException("no watch service on the full disk");
        }
    }

    /** A path on the full disk: the real path, answered by the full disk's file system. */
    private final class OnDisk implements Path {
        private final Path path;

        OnDisk(Path path) {
            this.path = path;
        }

        @Override
        public FileSystem getFileSystem() {
            return disk;
        }

        @Override
        public boolean isAbsolute() {
            return path.isAbsolute();
        }

        @Override
        public Path getRoot() {
            return wrap(path.getRoot());
        }

        @Override
        public Path getFileName() {
            return wrap(path.getFileName());
        }

        @Override
        public Path getParent() {
            return wrap(path.getParent());
        }

        @Override
        public int getNameCount() {
            return path.getNameCount();
        }

        @Override
        public Path getName(int index) {
            return wrap(path.getName(index));
        }

        @Override
        public Path subpath(int beginIndex, int endIndex) {
            return wrap(path.subpath(beginIndex, endIndex));
        }

        @Override
        public boolean startsWith(Path other) {
            return path.startsWith(unwrap(other));
        }

        @Override
        public boolean endsWith(Path other) {
            return path.endsWith(unwrap(other));
        }

        @Override
        public Path normalize() {
            return wrap(path.normalize());
        }

        @Override
        public Path resolve(Path other) {
            return wrap(path.resolve(unwrap(other)));
        }

        @Override
        public Path relativize(Path other) {
            return wrap(path.relativize(unwrap(other)));
        }

        @Override
        public URI toUri() {
            return path.toUri();
        }

        @Override
        public Path toAbsolutePath() {
            return wrap(path.toAbsolutePath());
        }

        @Override
        public Path toRealPath(LinkOption... options) throws IOException {
            return wrap(path.toRealPath(options));
        }

        @Override
        public java.nio.file.WatchKey register(WatchService watcher, java.nio.file.WatchEvent.Kind<?>[] events,
                                               java.nio.file.WatchEvent.Modifier... modifiers) {
            throw new UnsupportedOperationException("no watch service on the full disk");
        }

        @Override
        public int compareTo(Path other) {
            return path.compareTo(unwrap(other));
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof OnDisk other && other.path.equals(path);
        }

        @Override
        public int hashCode() {
            return path.hashCode();
        }

        @Override
        public String toString() {
            return path.toString();
        }
    }
}
