package org.sperli.launcher.job;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.sperli.crypto.AccpLibrary;
import org.sperli.jvm.ArchiveDump;

/**
 * The class-data-sharing archive (AppCDS) of the launcher's jar on this JDK, shared by the launcher and its local
 * ranks, and on JDK {@value #AOT_CACHE_FEATURE} and later an AOT cache of the ranks: with either a JVM maps the
 * classes it needs instead of reading, verifying and defining each one, a large part of a rank's start-up (see
 * docs/performance.md, "Class-data archives", sections 3.2 and 3.3).
 *
 * <p>{@code scripts/sperli} names the archive's base path ({@value #PROPERTY}): one per JDK and per build of the jar,
 * {@code ~/.cache/sperli/cds/<JDK path>/<jar name>-<size>-<mtime>}, in a directory only the user can use. There are
 * two archives, so that each JVM maps only what it uses: the ranks' {@code BASE.jsa} and the launcher's
 * {@code BASE.launcher.jsa}. While the launcher's is missing, the launcher runs with
 * {@code -XX:DumpLoadedClassList=BASE.launcher.classlist}; while the ranks' is missing, rank {@value #LISTING_RANK} of
 * the first job with that many local ranks writes {@code BASE.rank.classlist}. After the job {@link #makeIfMissing}
 * dumps each missing archive whose list is there ({@code java -Xshare:dump}, once, some seconds each), the launcher's
 * with the classes of an SSH launch too ({@value #SSH_CLASS_LIST}). Later JVMs start with
 * {@code -XX:SharedArchiveFile=...}; a JVM that finds the archive does not match (another JDK build, a changed
 * jar) ignores it and starts as before. The lambdas of the lists are archived too, and the archive is made again
 * without them if that dump fails ({@link ArchiveDump#dumpStatic}). The job's own classes are left out (see
 * {@link org.sperli.jvm.ClassLists#className}).
 *
 * <p>On JDK {@value #AOT_CACHE_FEATURE} and later the next job's rank {@value #LISTING_RANK} is a training run (JEP 483
 * and 515: {@code -XX:AOTMode=record}) that writes {@code BASE.rank-PID.aotconf}, PID being the launcher's, so that two
 * launchers never write one file; after that job the launcher makes {@code BASE.aot} from it
 * ({@code -XX:AOTMode=create}, once), and from then on local ranks start with {@code -XX:AOTCache=BASE.aot} instead of
 * the archive: their classes come loaded and linked, with the profiles of the training run, which starts them quicker
 * than the archive does. The cache holds classes, linkage and method profiles, never a value of the training job: the
 * create step runs no program. Only ranks started with {@link AccpLibrary#NATIVE_ACCESS} use it, as the JVM refuses a
 * cache made with other module options, and only without an operator's option that the JVM refuses beside it
 * ({@link #excludesAot}); a JVM that cannot use the cache says nothing ({@code -Xlog:aot=off}) and starts as before.
 */
public final class ClassDataArchive {
    /** The system property with the archive's base path, set by {@code scripts/sperli}. */
    public static final String PROPERTY = "sperli.cds";
    /**
     * The rank whose class list goes into the archive: rank 1, which only a job of two or more ranks has. A job of one
     * rank makes no connection, and an archive made from its list left Netty and the TLS stack out (about 1,200 of a
     * rank's 3,800 classes then loaded from the jar at every later start).
     */
    static final int LISTING_RANK = 1;
    /** The first JDK whose ranks get an AOT cache: 24 has the cache, 25 also keeps the training run's profiles. */
    static final int AOT_CACHE_FEATURE = 25;
    /** The resource that lists the classes of an SSH launch (see {@link #copySshClassList}). */
    public static final String SSH_CLASS_LIST = "ssh-client.classlist";
    private static final String LAUNCHER_ARCHIVE = "the launcher's class-data archive";
    private static final String AOT_CONFIGURATION = ".aotconf";
    private static final String PARTIAL = ".partial-";
    /**
     * The training rank's options besides the mode and file: the JVM prints "AOTConfiguration recorded" to the tty at
     * exit, which would be a line of the job's output, and warns about classes it skips.
     */
    private static final List<String> QUIET_RECORDING = List.of("-XX:+UnlockDiagnosticVMOptions",
            "-XX:-DisplayVMOutput", "-Xlog:aot=off", "-Xlog:cds=off");

    private final Path base;
    private final Path jar;
    private final String javaCommand;
    private final int javaFeature;
    private final long launcherPid;

    ClassDataArchive(Path base, Path jar, String javaCommand, int javaFeature, long launcherPid) {
        this.base = base;
        this.jar = jar;
        this.javaCommand = javaCommand;
        this.javaFeature = javaFeature;
        this.launcherPid = launcherPid;
    }

    /**
     * The archive named by {@value #PROPERTY} for this JVM's jar, or empty when there is none to use or make: no
     * property, or a class path that is not one jar file (a JVM from a build directory, the tests).
     */
    public static Optional<ClassDataArchive> ofThisJvm() {
        String base = System.getProperty(PROPERTY);
        String classPath = System.getProperty("java.class.path", "");
        if (base == null || base.isBlank() || classPath.contains(java.io.File.pathSeparator)
                || !classPath.endsWith(".jar") || !Files.isRegularFile(Path.of(classPath))) {
            return Optional.empty();
        }
        return Optional.of(new ClassDataArchive(Path.of(base), Path.of(classPath),
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), Runtime.version().feature(),
                ProcessHandle.current().pid()));
    }

    /** The ranks' archive. */
    Path archive() {
        return sibling(".jsa");
    }

    /** The launcher's own archive: its classes and those of an SSH launch, none of the ranks' alone. */
    Path launcherArchive() {
        return sibling(".launcher.jsa");
    }

    Path aotCache() {
        return sibling(".aot");
    }

    /** The training run's configuration: this launcher's own, so that two launchers never write one file. */
    Path aotConfiguration() {
        return sibling(".rank-" + launcherPid + AOT_CONFIGURATION);
    }

    /**
     * The JVM options of local rank {@code rank}, whose command line has {@code otherOptions} too: the AOT cache when
     * it exists and the rank can use it, else the archive (or the training run of rank {@value #LISTING_RANK} when
     * the AOT cache is still to be made), else the class list of rank {@value #LISTING_RANK}. A rank can use the AOT
     * cache when its options have {@link AccpLibrary#NATIVE_ACCESS}, as the create step has, and none of those the
     * JVM refuses to start with beside an AOT option (an operator's {@code -Xshare:off}, say).
     */
    public List<String> rankOptions(int rank, List<String> otherOptions) {
        boolean aot = javaFeature >= AOT_CACHE_FEATURE && otherOptions.contains(AccpLibrary.NATIVE_ACCESS)
                && otherOptions.stream().noneMatch(ClassDataArchive::excludesAot);
        if (aot && Files.isRegularFile(aotCache())) {
            return List.of("-XX:AOTCache=" + aotCache(), "-Xlog:aot=off");
        }
        if (Files.isRegularFile(archive())) {
            if (aot && rank == LISTING_RANK) {
                List<String> record = new ArrayList<>(List.of("-XX:AOTMode=record",
                        "-XX:AOTConfiguration=" + aotConfiguration()));
                record.addAll(QUIET_RECORDING);
                return record;
            }
            return List.of("-XX:SharedArchiveFile=" + archive());
        }
        return rank == LISTING_RANK ? List.of("-XX:DumpLoadedClassList=" + sibling(".rank.classlist")) : List.of();
    }

    /** Whether the JVM refuses to start with {@code option} and an AOT option (JDK 25: "cannot be used ..."). */
    static boolean excludesAot(String option) {
        return option.startsWith("-Xshare:") || option.startsWith("-XX:SharedArchiveFile")
                || option.startsWith("-XX:DumpLoadedClassList") || option.startsWith("-XX:SharedClassListFile")
                || option.startsWith("-XX:AOT") || option.startsWith("-XX:ArchiveClassesAtExit");
    }

    /**
     * Makes what the job just ended has prepared: the ranks' archive when it is missing and rank
     * {@value #LISTING_RANK} wrote its list, the launcher's when it is missing and the launcher wrote its list, and
     * the AOT cache from this launcher's training run when it is missing and {@code jobCompleted} (a rank stopped in
     * the middle of its run may leave half a configuration). Returns what to tell the operator (one line), or empty
     * when nothing was done. Never throws: without them JVMs only start slower.
     */
    public Optional<String> makeIfMissing(boolean jobCompleted) {
        Optional<String> archiveNote = makeArchiveIfMissing();
        Optional<String> launcherNote = makeLauncherArchiveIfMissing();
        Optional<String> aotNote = makeAotCacheIfMissing(jobCompleted);
        removeOrphanedConfigurations();
        String notes = Stream.of(archiveNote, launcherNote, aotNote).flatMap(Optional::stream)
                .collect(Collectors.joining("; "));
        return notes.isEmpty() ? Optional.empty() : Optional.of(notes);
    }

    private Optional<String> makeAotCacheIfMissing(boolean jobCompleted) {
        if (!Files.isRegularFile(aotConfiguration())) {
            return Optional.empty();
        }
        try {
            if (!jobCompleted || Files.isRegularFile(aotCache())) {
                return Optional.empty();
            }
            Path partial = sibling(PARTIAL + launcherPid + ".aot");
            List<String> create = List.of(javaCommand, AccpLibrary.NATIVE_ACCESS, "-XX:AOTMode=create",
                    "-XX:AOTConfiguration=" + aotConfiguration(), "-XX:AOTCache=" + partial, "-cp", jar.toString());
            return make("AOT cache", () -> ArchiveDump.run(create, partial), partial, aotCache(),
                    "made an AOT cache for faster rank starts on this JDK");
        } finally {
            deleteQuietly(aotConfiguration());
        }
    }

    /** The ranks' archive, from the list of rank {@value #LISTING_RANK}. */
    private Optional<String> makeArchiveIfMissing() {
        Path rankList = sibling(".rank.classlist");
        if (Files.isRegularFile(archive()) || !Files.isRegularFile(rankList)) {
            return Optional.empty();
        }
        try {
            return dumpArchive("class-data archive", List.of(rankList), ".classlist", ".jsa", archive(),
                    "made a class-data archive for faster starts on this JDK");
        } finally {
            deleteQuietly(rankList);
        }
    }

    /**
     * The launcher's archive, from its own list and those of an SSH launch: each JVM maps only what it uses, as the
     * JVM relocates every pointer of an archive it maps (the JDK's default, for address randomisation), and the SSH
     * classes would have cost each rank that time for nothing (see docs/performance.md, section 3.2).
     */
    private Optional<String> makeLauncherArchiveIfMissing() {
        Path launcherList = sibling(".launcher.classlist");
        if (Files.isRegularFile(launcherArchive()) || !Files.isRegularFile(launcherList)) {
            return Optional.empty();
        }
        Path sshList = sibling(".ssh.classlist");
        try {
            copySshClassList(sshList);
            return dumpArchive(LAUNCHER_ARCHIVE, List.of(launcherList, sshList), ".launcher.classlist-all",
                    ".launcher.jsa", launcherArchive(), "made the launcher's class-data archive");
        } catch (IOException e) {
            return Optional.of(LAUNCHER_ARCHIVE + " not made: " + e.getMessage());
        } finally {
            deleteQuietly(sshList);
            deleteQuietly(launcherList);
        }
    }

    /**
     * Dumps the classes of {@code lists} into {@code target} (named {@code what} in a failure) through a partial file;
     * the note of {@link #make}.
     */
    private Optional<String> dumpArchive(String what, List<Path> lists, String mergedSuffix, String suffix,
                                         Path target, String made) {
        Path merged = sibling(mergedSuffix);
        Path partial = sibling(PARTIAL + launcherPid + suffix);
        try {
            // With the module options of the launcher and the ranks: a JVM whose options differ uses the archive only
            // in part and says so in three error lines on JDK 25.
            return make(what, () -> ArchiveDump.dumpStatic(javaCommand, List.of(AccpLibrary.NATIVE_ACCESS), lists,
                    merged, partial, jar.toString()), partial, target, made);
        } finally {
            deleteQuietly(merged);
        }
    }

    /** A child JVM's work that writes a partial file ({@link ArchiveDump}). */
    private interface Dump {
        void run() throws IOException, InterruptedException;
    }

    /**
     * Runs {@code dump}, which writes {@code partial}, and moves that to {@code target}; returns the line that
     * says what came of it ({@code made}, or why {@code what} was not made). A dump that outlives its bound is ended:
     * none outlives the launcher.
     */
    private Optional<String> make(String what, Dump dump, Path partial, Path target, String made) {
        try {
            dump.run();
            moveIntoPlace(partial, target);
            removeEarlierBuilds();
            return Optional.of(made + ": " + target);
        } catch (IOException e) {
            return Optional.of(what + " not made: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } finally {
            deleteQuietly(partial);
        }
    }

    /**
     * Copies the classes a launcher loads to start ranks over SSH ({@value #SSH_CLASS_LIST}, a resource beside this
     * class) to {@code copy}, for the archive. The job that makes the archive ran local ranks, so its launcher never
     * loaded the SSH client; without these every SSH launch read over a thousand classes of the SSH library and its
     * Bouncy Castle provider from the jar, a large part of the launcher's CPU (see docs/performance.md, section 3.2).
     * {@code SshClassListTest} keeps the list current.
     */
    private static void copySshClassList(Path copy) throws IOException {
        try (InputStream in = ClassDataArchive.class.getResourceAsStream(SSH_CLASS_LIST)) {
            if (in != null) {
                Files.copy(in, copy, StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    /** Archives and lists of earlier builds of the same jar: about 30 MB each, never to be used again. */
    private void removeEarlierBuilds() {
        String jarStem = jar.getFileName().toString().replaceAll("\\.jar$", "") + "-";
        String ours = base.getFileName().toString();
        try (var files = Files.list(base.getParent())) {
            files.filter(f -> {
                String name = f.getFileName().toString();
                return name.startsWith(jarStem) && !name.startsWith(ours + ".") && !name.contains(PARTIAL);
            }).forEach(ClassDataArchive::deleteQuietly);
        } catch (IOException e) {
            // only space is lost
        }
    }

    /** Training configurations of launchers that ended before making the cache (killed): about 30 MB each. */
    private void removeOrphanedConfigurations() {
        String prefix = base.getFileName() + ".rank-";
        try (var files = Files.list(base.getParent())) {
            files.filter(f -> {
                String name = f.getFileName().toString();
                if (!name.startsWith(prefix) || !name.endsWith(AOT_CONFIGURATION)) {
                    return false;
                }
                String pid = name.substring(prefix.length(), name.length() - AOT_CONFIGURATION.length());
                return pid.chars().allMatch(Character::isDigit) && !pid.isEmpty()
                        && ProcessHandle.of(Long.parseLong(pid)).isEmpty();
            }).forEach(ClassDataArchive::deleteQuietly);
        } catch (IOException | NumberFormatException e) {
            // only space is lost
        }
    }

    private Path sibling(String suffix) {
        return base.resolveSibling(base.getFileName() + suffix);
    }

    private static void moveIntoPlace(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static void deleteQuietly(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            // a leftover list is rewritten by the next first job
        }
    }
}
