package org.sperli.rankd;

import com.sun.management.HotSpotDiagnosticMXBean;
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
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.management.JMException;
import javax.management.ObjectName;

/**
 * The class-data archive of a rank host that runs no launcher: an SSH host whose ranks are its own
 * {@code sperli-rankd} or the launcher's staged jars. A local rank maps the archive its launcher made; such a host has
 * none, and without one a rank spends a large part of its start on reading, verifying and defining classes (see
 * docs/performance.md, section 3.4).
 *
 * <p>While {@code BASE.jsa} is missing the rank command names the archive's base path in {@value #PROPERTY} and has
 * the JVM record: on Java 25 and later with {@code -XX:+RecordDynamicDumpInfo}, so that this JVM can write a dynamic
 * archive itself ({@code VM.cds dynamic_dump}, well under a second); before Java 25 with
 * {@code -XX:DumpLoadedClassList=BASE.rank-PID.classlist}, from which a child JVM makes a static archive
 * ({@link ClassListDump}, a few seconds). (A JDK 17 JVM recording for a dynamic archive was seen to loop for good in
 * its exit, one job in five.) With the archive the command passes {@code -XX:SharedArchiveFile=BASE.jsa} instead.
 * After a job that completed, the first rank of the host to end takes {@code BASE.jsa.lock}, has the archive written
 * to {@code BASE.jsa.partial-PID} and renames it into place: a later JVM never maps a file still being written, and a
 * rank killed meanwhile leaves only a partial name and a lock, which is taken over after {@link #STALE_LOCK}. Every
 * rank removes its class list at its end, and what ranks no longer running left. The archive holds class data only,
 * never a value of the job, and lives in an owner-only directory ({@code ~/.cache/sperli/cds}), since a JVM executes
 * what it maps.
 */
final class RankArchive {
    /** The system property with the archive's base path, set by the rank command. */
    static final String PROPERTY = "sperli.rankd.cds";
    /** Other archives of the same kind (see {@link #removeOlderOfItsKind}) kept beside a new one. */
    static final int KEPT_OF_A_KIND = 3;
    /** A lock this old belongs to a rank that died while dumping. */
    static final Duration STALE_LOCK = Duration.ofMinutes(10);
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");

    private final Path base;
    private final Path classListOrNull;
    private final Consumer<String> warn;

    /**
     * The archive at {@code base}; with {@code classListOrNull}, the list this JVM writes, a static archive made from
     * it, else a dynamic one.
     */
    RankArchive(Path base, Path classListOrNull, Consumer<String> warn) {
        this.base = base;
        this.classListOrNull = classListOrNull;
        this.warn = warn;
    }

    /** The archive named by {@value #PROPERTY}, when this JVM was started to make one. */
    static Optional<RankArchive> ofThisJvm(Consumer<String> warn) {
        String base = System.getProperty(PROPERTY);
        if (base == null || base.isBlank()) {
            return Optional.empty();
        }
        String list = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                .getVMOption("DumpLoadedClassList").getValue();
        return Optional.of(new RankArchive(Path.of(base).toAbsolutePath(),
                list.isEmpty() ? null : Path.of(list).toAbsolutePath(), warn));
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
        try {
            return !Files.exists(archive(), LinkOption.NOFOLLOW_LINKS) && make(now);
        } finally {
            removeLeftovers();
        }
    }

    private boolean make(Instant now) {
        long pid = ProcessHandle.current().pid();
        Path partial = sibling(".jsa.partial-" + pid);
        Path filtered = sibling(".classlist.partial-" + pid);
        try {
            if (!ownerOnlyDirectory() || !takeLock(now)) {
                return false;
            }
            try {
                if (classListOrNull != null) {
                    ClassListDump.run(classListOrNull, filtered, partial);
                } else {
                    dumpSilently(partial);
                }
                moveIntoPlace(partial);
                removeOlderOfItsKind();
                return true;
            } finally {
                Files.deleteIfExists(partial);
                Files.deleteIfExists(filtered);
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

    /**
     * Removes this JVM's class list, and what ranks that are no longer running left of theirs: class lists
     * ({@code BASE.rank-PID.classlist}, named by the rank command) and the partial archives and lists of a rank killed
     * while it made the archive ({@code BASE.jsa.partial-PID}, {@code BASE.classlist.partial-PID}). Never throws.
     */
    private void removeLeftovers() {
        Pattern leftover = Pattern.compile(Pattern.quote(base.getFileName().toString())
                + "\\.(?:rank-|jsa\\.partial-|classlist\\.partial-)(\\d{1,18})(?:\\.classlist)?");
        try (Stream<Path> files = Files.list(base.getParent())) {
            for (Path f : files.toList()) {
                Matcher m = leftover.matcher(f.getFileName().toString());
                if (f.equals(classListOrNull) || m.matches() && !running(m.group(1))) {
                    Files.deleteIfExists(f);
                }
            }
        } catch (IOException | RuntimeException e) {
            // Only space is lost: a list is about 200 KB, a partial archive up to 30 MB.
        }
    }

    /**
     * Keeps the {@value #KEPT_OF_A_KIND} newest other archives of this kind in the directory and removes the rest: an
     * archive is 20 to 30 MB, and every new build of the jars (or Java) on a host that no launcher cleans makes one.
     * Of a kind are names equal but for their runs of six or more hex digits (a digest, a size, a time stamp).
     */
    private void removeOlderOfItsKind() {
        String kind = kindOf(archive().getFileName().toString());
        try (Stream<Path> files = Files.list(base.getParent())) {
            List<Path> others = files.filter(f -> !f.equals(archive()))
                    .filter(f -> kindOf(f.getFileName().toString()).equals(kind))
                    .sorted(Comparator.comparing(RankArchive::modified).reversed()).toList();
            for (Path old : others.subList(Math.min(KEPT_OF_A_KIND, others.size()), others.size())) {
                Files.deleteIfExists(old);
            }
        } catch (IOException | RuntimeException e) {
            // Only space is lost.
        }
    }

    static String kindOf(String name) {
        return name.endsWith(".jsa") ? name.replaceAll("[0-9a-f]{6,}", "#") : "";
    }

    private static FileTime modified(Path f) {
        try {
            return Files.getLastModifiedTime(f, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            return FileTime.fromMillis(0);
        }
    }

    private static boolean running(String pid) {
        return ProcessHandle.of(Long.parseLong(pid)).isPresent();
    }

    private Path sibling(String suffix) {
        return base.resolveSibling(base.getFileName() + suffix);
    }
}
