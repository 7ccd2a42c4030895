package org.sperli.rankd;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import javax.management.JMException;
import javax.management.ObjectName;

/**
 * The class-data archive of a rank host that runs no launcher: an SSH host whose ranks are its own
 * {@code sperli-rankd} or the launcher's staged jars. A local rank maps the archive its launcher made; such a host has
 * none, and without one a rank spends about a quarter of its start on reading, verifying and defining classes (hello
 * on 4 local ranks of JDK 25 with this archive: 0.75 of the wall time without it, medians of paired runs).
 *
 * <p>On Java 25 and later the rank command names the archive's base path in {@value #PROPERTY} when {@code BASE.jsa}
 * is missing, and starts the JVM with {@code -XX:+RecordDynamicDumpInfo}; with the archive it passes
 * {@code -XX:SharedArchiveFile=BASE.jsa} instead. (A JDK 17 JVM recording this way was seen to loop for good in its
 * exit, so older Javas get neither.) After a job that completed, the first such rank of the host to end
 * takes {@code BASE.jsa.lock} and has its JVM write a dynamic archive of the classes it loaded (the JDK's
 * {@code VM.cds dynamic_dump}, about 0.3 to 0.5 s, once) to {@code BASE.jsa.partial-PID}, which it renames into
 * place: a later JVM never maps a file still being written, and a rank killed meanwhile leaves only a partial name
 * and a lock, which is taken over after {@link #STALE_LOCK}. The archive holds class data only, never a value of the
 * job, and lives in an owner-only directory ({@code ~/.cache/sperli/cds}), since a JVM executes what it maps.
 */
final class RankArchive {
    /** The system property with the archive's base path, set by the rank command. */
    static final String PROPERTY = "sperli.rankd.cds";
    /** A lock this old belongs to a rank that died while dumping. */
    static final Duration STALE_LOCK = Duration.ofMinutes(10);
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");

    private final Path base;
    private final Consumer<String> warn;

    RankArchive(Path base, Consumer<String> warn) {
        this.base = base;
        this.warn = warn;
    }

    /** The archive named by {@value #PROPERTY}, when this JVM was started to make one. */
    static Optional<RankArchive> ofThisJvm(Consumer<String> warn) {
        String base = System.getProperty(PROPERTY);
        if (base == null || base.isBlank()) {
            return Optional.empty();
        }
        return Optional.of(new RankArchive(Path.of(base).toAbsolutePath(), warn));
    }

    Path archive() {
        return sibling(".jsa");
    }

    Path lock() {
        return sibling(".jsa.lock");
    }

    /**
     * Makes the archive unless it exists, another rank is making it, or its directory is not this user's alone; a
     * failure costs only the speed-up and is one warning line. Returns whether this call made it.
     */
    boolean makeIfMissing(Instant now) {
        if (Files.exists(archive(), LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        Path partial = sibling(".jsa.partial-" + ProcessHandle.current().pid());
        try {
            if (!ownerOnlyDirectory() || !takeLock(now)) {
                return false;
            }
            try {
                dumpSilently(partial);
                moveIntoPlace(partial);
                return true;
            } finally {
                Files.deleteIfExists(partial);
                Files.deleteIfExists(lock());
            }
        } catch (IOException | JMException | RuntimeException e) {
            // One line: the JDK's own message (a diagnostic command's output) may span several.
            warn.accept("warning: no class-data archive for faster rank starts at " + archive() + ": "
                    + String.valueOf(e).replaceAll("\\s+", " ").strip());
            return false;
        }
    }

    /** Creates the directory owner-only, or accepts it when it is already this user's alone. */
    private boolean ownerOnlyDirectory() throws IOException {
        Path dir = base.getParent();
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            Files.createDirectories(dir);
            Files.setPosixFilePermissions(dir, OWNER_ONLY);
        }
        String owner = Files.getOwner(dir, LinkOption.NOFOLLOW_LINKS).getName();
        Set<PosixFilePermission> perms = Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS);
        if (!owner.equals(System.getProperty("user.name")) || perms.contains(PosixFilePermission.GROUP_WRITE)
                || perms.contains(PosixFilePermission.OTHERS_WRITE)) {
            warn.accept("warning: no class-data archive in " + dir + ": the directory is not this user's alone");
            return false;
        }
        return true;
    }

    private boolean takeLock(Instant now) throws IOException {
        try {
            Files.createFile(lock());
            return true;
        } catch (FileAlreadyExistsException taken) {
            FileTime since = Files.getLastModifiedTime(lock(), LinkOption.NOFOLLOW_LINKS);
            if (since.toInstant().plus(STALE_LOCK).isAfter(now)) {
                return false;
            }
            // Two ranks finding one stale lock: each removes it, only one creates the new one.
            Files.deleteIfExists(lock());
            try {
                Files.createFile(lock());
                return true;
            } catch (FileAlreadyExistsException lost) {
                return false;
            }
        }
    }

    /**
     * Runs {@code VM.cds dynamic_dump}. The JDK reports the dump on {@code System.out} ("Dynamic dump to file ...",
     * JDK 25 "The process was attached by jcmd ..."), which is the job's output: both streams are silenced for it,
     * after the job's program has ended.
     */
    private static void dumpSilently(Path partial) throws JMException {
        PrintStream out = System.out;
        PrintStream err = System.err;
        PrintStream nowhere = new PrintStream(OutputStream.nullOutputStream());
        System.setOut(nowhere);
        System.setErr(nowhere);
        try {
            ManagementFactory.getPlatformMBeanServer().invoke(
                    new ObjectName("com.sun.management:type=DiagnosticCommand"), "vmCds",
                    new Object[] {new String[] {"dynamic_dump", partial.toString()}},
                    new String[] {String[].class.getName()});
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
        if (!Files.isRegularFile(partial, LinkOption.NOFOLLOW_LINKS)) {
            throw new IllegalStateException("the JVM wrote no archive (started without -XX:+RecordDynamicDumpInfo?)");
        }
    }

    private void moveIntoPlace(Path partial) throws IOException {
        try {
            Files.move(partial, archive(), StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            throw new IOException("cannot rename " + partial + " atomically: " + e.getMessage(), e);
        }
    }

    private Path sibling(String suffix) {
        return base.resolveSibling(base.getFileName() + suffix);
    }
}
