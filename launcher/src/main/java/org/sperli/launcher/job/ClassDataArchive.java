package org.sperli.launcher.job;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The class-data-sharing archive (AppCDS) of the launcher's jar on this JDK, shared by the launcher and its local
 * ranks: with it a JVM maps the classes it needs instead of reading, verifying and defining each one, which was about
 * half of a rank's start-up.
 *
 * <p>{@code scripts/sperli} names the archive's base path ({@value #PROPERTY}): one per JDK and per build of the jar,
 * {@code ~/.cache/sperli/cds/<JDK path>/<jar name>-<size>-<mtime>}, in a directory only the user can use. While
 * {@code BASE.jsa} is missing, the launcher runs with {@code -XX:DumpLoadedClassList=BASE.launcher.classlist}, rank
 * {@value #LISTING_RANK} of the first job with that many local ranks writes {@code BASE.rank.classlist}, and after
 * that job {@link #makeIfMissing}
 * dumps the archive from both lists ({@code java -Xshare:dump}, once, about 5 s). Later JVMs start with
 * {@code -XX:SharedArchiveFile=BASE.jsa}; a JVM that finds the archive does not match (another JDK build, a changed
 * jar) ignores it and starts as before. Lambda and lambda-form lines are left out of the list: dumping them crashes
 * some JDK 17 builds (Debian's 17.0.15) and they are a small part of the gain. The job's own classes are left out
 * too (see {@link #className}).
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
    /** How long the one-time dump may take before it is given up. */
    static final long DUMP_TIMEOUT_SECONDS = 120;

    private final Path base;
    private final Path jar;
    private final String javaCommand;

    ClassDataArchive(Path base, Path jar, String javaCommand) {
        this.base = base;
        this.jar = jar;
        this.javaCommand = javaCommand;
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
                Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    }

    Path archive() {
        return sibling(".jsa");
    }

    /**
     * The JVM options of local rank {@code rank}: the archive when it exists, else the class list of rank
     * {@value #LISTING_RANK}.
     */
    public List<String> rankOptions(int rank) {
        if (Files.isRegularFile(archive())) {
            return List.of("-XX:SharedArchiveFile=" + archive());
        }
        return rank == LISTING_RANK ? List.of("-XX:DumpLoadedClassList=" + sibling(".rank.classlist")) : List.of();
    }

    /**
     * Makes the archive from the class lists when it is missing and rank 0 wrote its list; returns what to tell the
     * operator (one line), or empty when nothing was done. Never throws: without an archive JVMs only start slower.
     */
    public Optional<String> makeIfMissing() {
        Path rankList = sibling(".rank.classlist");
        Path launcherList = sibling(".launcher.classlist");
        if (Files.isRegularFile(archive()) || !Files.isRegularFile(rankList)) {
            return Optional.empty();
        }
        Path merged = sibling(".classlist");
        Path partial = sibling(".jsa.partial-" + ProcessHandle.current().pid());
        Process dump = null;
        try {
            Set<String> lines = new LinkedHashSet<>();
            for (Path list : List.of(launcherList, rankList)) {
                if (Files.isRegularFile(list)) {
                    for (String line : Files.readAllLines(list, StandardCharsets.UTF_8)) {
                        String name = className(line);
                        if (name != null) {
                            lines.add(name);
                        }
                    }
                }
            }
            Files.write(merged, new ArrayList<>(lines), StandardCharsets.UTF_8);
            dump = new ProcessBuilder(javaCommand, "-Xshare:dump", "-XX:SharedClassListFile=" + merged,
                    "-XX:SharedArchiveFile=" + partial, "-cp", jar.toString())
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!dump.waitFor(DUMP_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                return Optional.of("class-data archive not made: the dump took over " + DUMP_TIMEOUT_SECONDS + " s");
            }
            if (dump.exitValue() != 0 || !Files.isRegularFile(partial)) {
                return Optional.of("class-data archive not made: java -Xshare:dump exited with "
                        + dump.exitValue());
            }
            moveIntoPlace(partial, archive());
            removeEarlierBuilds();
            return Optional.of("made a class-data archive for faster starts on this JDK: " + archive());
        } catch (IOException e) {
            return Optional.of("class-data archive not made: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } finally {
            if (dump != null && dump.isAlive()) {
                // timed out or interrupted: no dump outlives the launcher
                dump.destroyForcibly();
                try {
                    dump.waitFor(5, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            deleteQuietly(partial);
            deleteQuietly(merged);
            deleteQuietly(rankList);
            deleteQuietly(launcherList);
        }
    }

    /**
     * The class a class-list line names, or null for a line to leave out: comments, lambda and lambda-form lines
     * ({@code @...}), and classes of other class loaders ({@code ... source: JAR}: the job's own classes). Newer
     * JDKs number every line ({@code name id: N}); the numbers of two JVMs' lists collide, so only names are kept.
     */
    static String className(String line) {
        String text = line.strip();
        if (text.isEmpty() || text.startsWith("#") || text.startsWith("@") || text.contains(" source: ")) {
            return null;
        }
        int space = text.indexOf(' ');
        return space < 0 ? text : text.substring(0, space);
    }

    /** Archives and lists of earlier builds of the same jar: about 30 MB each, never to be used again. */
    private void removeEarlierBuilds() {
        String jarStem = jar.getFileName().toString().replaceAll("\\.jar$", "") + "-";
        String ours = base.getFileName().toString();
        try (var files = Files.list(base.getParent())) {
            files.filter(f -> {
                String name = f.getFileName().toString();
                return name.startsWith(jarStem) && !name.startsWith(ours + ".") && !name.contains(".partial-");
            }).forEach(ClassDataArchive::deleteQuietly);
        } catch (IOException e) {
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
