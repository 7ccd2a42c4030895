package org.sperli.rankd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sperli.testing.Jdks;

/**
 * The class-data archive a rank host without a launcher makes for itself: once, by the first rank to complete a job,
 * under a lock, renamed into place whole, silent on the job's output, and mapped by the next JVM.
 */
class RankArchiveTest {
    private static final Instant NOW = Instant.parse("2026-12-05T09:00:00Z");
    private static final long CHILD_BOUND_S = 60;

    @TempDir
    Path dir;

    @Test
    void onJava25TheFirstRankToEndWritesADynamicArchiveWholeAndSilentlyAndTheNextJvmMapsIt() throws Exception {
        Path jdk = jdk25();
        Path base = ownerOnly().resolve("rankd");

        Child made = child(jdk, "-XX:+RecordDynamicDumpInfo", "-D" + RankArchive.PROPERTY + "=" + base,
                RankArchiveChild.class.getName(), "rank");

        assertEquals(0, made.status, made.err);
        assertEquals("made=true\n", made.out, "the dump must not reach the job's output");
        assertEquals("", made.err);
        assertEquals(List.of("rankd.jsa"), names(base.getParent()), "no partial file or lock is left");
        assertMapped(jdk, base);
    }

    @Test
    void beforeJava25TheRankMakesAStaticArchiveFromItsClassListAndRemovesTheLists() throws Exception {
        assumeTrue(Runtime.version().feature() < 25, "skipped: this JVM is Java 25 or later");
        Path jdk = Path.of(System.getProperty("java.home"));
        Path base = ownerOnly().resolve("rankd-abcdef");
        Path orphan = Files.writeString(Path.of(base + ".rank-999999999.classlist"), "java/lang/Object\n");
        Path killedWhileDumping = Files.writeString(Path.of(base + ".jsa.partial-999999998"), "half");
        Path killedWhileListing = Files.writeString(Path.of(base + ".classlist.partial-999999997"), "half");
        Path living = Files.writeString(Path.of(base + ".rank-" + ProcessHandle.current().pid() + ".classlist"), "");
        // Archives of earlier builds, newest first, of the base's kind: alike but for a run of hex digits.
        List<Path> older = new ArrayList<>();
        for (int i = 0; i <= RankArchive.KEPT_OF_A_KIND; i++) {
            Path other = Files.writeString(base.resolveSibling("rankd-12345" + i + ".jsa"), "old");
            Files.setLastModifiedTime(other, FileTime.from(Instant.now().minus(Duration.ofDays(i + 1))));
            older.add(other);
        }

        Child made = child(jdk, "-XX:DumpLoadedClassList=" + base + ".rank-1.classlist",
                "-D" + RankArchive.PROPERTY + "=" + base, RankArchiveChild.class.getName(), "rank");

        assertEquals("made=true\n", made.out, made.err);
        assertEquals("", made.err);
        assertFalse(Files.exists(orphan), "the list of a rank no longer running is removed");
        assertFalse(Files.exists(killedWhileDumping), "a partial archive of a rank no longer running is removed");
        assertFalse(Files.exists(killedWhileListing), "a partial list of a rank no longer running is removed");
        for (int i = 0; i < RankArchive.KEPT_OF_A_KIND; i++) {
            assertTrue(Files.exists(older.get(i)), "one of the newest others is kept: " + older.get(i));
        }
        assertFalse(Files.exists(older.get(RankArchive.KEPT_OF_A_KIND)), "the oldest other one is removed");
        for (Path other : older) {
            Files.deleteIfExists(other);
        }
        assertTrue(Files.exists(living), "the list of a running rank is kept");
        assertEquals(List.of("rankd-abcdef.jsa", living.getFileName().toString()), names(base.getParent()));
        assertMapped(jdk, base);
    }

    @Test
    void anArchiveThatExistsIsKept() throws Exception {
        Path base = ownerOnly().resolve("rankd");
        Files.writeString(Path.of(base + ".jsa"), "made earlier");
        List<String> warnings = new ArrayList<>();

        assertFalse(new RankArchive(base, null, warnings::add).makeIfMissing(NOW));

        assertEquals("made earlier", Files.readString(Path.of(base + ".jsa")));
        assertEquals(List.of(), warnings);
    }

    @Test
    void aFreshLockMeansAnotherRankIsMakingIt() throws Exception {
        Path base = ownerOnly().resolve("rankd");
        RankArchive archive = new RankArchive(base, null, line -> { });
        Files.createFile(archive.lock());
        Files.setLastModifiedTime(archive.lock(), FileTime.from(NOW.minus(Duration.ofMinutes(9))));

        assertFalse(archive.makeIfMissing(NOW));

        assertEquals(List.of("rankd.jsa.lock"), names(base.getParent()));
    }

    @Test
    void aStaleLockOfARankThatDiedWhileDumpingIsTakenOver() throws Exception {
        Path base = ownerOnly().resolve("rankd");
        Path lock = Files.createFile(Path.of(base + ".jsa.lock"));
        Files.setLastModifiedTime(lock, FileTime.from(Instant.now().minus(RankArchive.STALE_LOCK).minusSeconds(60)));

        Child made = child(jdk25(), "-XX:+RecordDynamicDumpInfo", "-D" + RankArchive.PROPERTY + "=" + base,
                RankArchiveChild.class.getName(), "rank");

        assertEquals("made=true\n", made.out, made.err);
        assertEquals(List.of("rankd.jsa"), names(base.getParent()));
    }

    @Test
    void aDirectoryOthersMayWriteGetsNoArchive() throws Exception {
        Path shared = Files.createDirectory(dir.resolve("shared"));
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
        List<String> warnings = new ArrayList<>();

        assertFalse(new RankArchive(shared.resolve("rankd"), null, warnings::add).makeIfMissing(NOW));

        assertEquals(List.of(), names(shared));
        assertEquals(List.of("warning: no class-data archive in " + shared
                + ": the directory is not this user's alone"), warnings);
    }

    @Test
    void aMissingDirectoryIsMadeOwnerOnlyAndAJvmThatCannotDumpSaysSoInOneLineAndLeavesNothing() throws Exception {
        // This test JVM was started without -XX:+RecordDynamicDumpInfo, so the JDK refuses the dump.
        Path cds = dir.resolve("cache").resolve("cds");
        List<String> warnings = new ArrayList<>();

        assertFalse(new RankArchive(cds.resolve("rankd"), null, warnings::add).makeIfMissing(NOW));

        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(cds)));
        assertEquals(List.of(), names(cds));
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).startsWith("warning: no class-data archive for faster rank starts at " + cds
                + "/rankd.jsa: "), warnings.get(0));
        assertFalse(warnings.get(0).contains("\n"), warnings.get(0));
    }

    private Path ownerOnly() throws IOException {
        return Files.createDirectory(dir.resolve("cds"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    }

    /** The two classes the child runs, in a jar made once per test. */
    private Path childJar() throws IOException {
        Path jar = dir.resolve("child.jar");
        if (Files.exists(jar)) {
            return jar;
        }
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            for (Class<?> c : List.of(RankArchive.class, RankArchiveChild.class, ClassListDump.class,
                    org.sperli.jvm.ClassLists.class, org.sperli.jvm.ArchiveDump.class,
                    org.sperli.jvm.ArchiveDump.TimedOut.class)) {
                String entry = c.getName().replace('.', '/') + ".class";
                out.putNextEntry(new JarEntry(entry));
                try (InputStream in = c.getClassLoader().getResourceAsStream(entry)) {
                    in.transferTo(out);
                }
                out.closeEntry();
            }
        }
        return jar;
    }

    private static List<String> names(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.map(f -> f.getFileName().toString()).sorted().toList();
        }
    }

    private record Child(int status, String out, String err) {
    }

    /** A JDK 25 or later, or the test is skipped. */
    private static Path jdk25() {
        Path jdk = Jdks.atLeast(25).orElse(null);
        assumeTrue(jdk != null, "skipped: no JDK 25 or later here, which dynamic archives need");
        return jdk;
    }

    /** -Xshare:on makes a JVM that cannot map the archive fail to start. */
    private void assertMapped(Path jdk, Path base) throws IOException, InterruptedException {
        Child mapped = child(jdk, "-Xshare:on", "-XX:SharedArchiveFile=" + base + ".jsa",
                RankArchiveChild.class.getName());
        assertEquals(0, mapped.status, mapped.err);
        assertEquals("mapped\n", mapped.out);
    }

    /**
     * A JVM of {@code jdk} with {@code args} (JVM options, then the main class and its arguments) and the CDS logging
     * off, as a rank command starts it, on a class path of one jar: a JVM recording for a dynamic archive refuses to start with a
     * directory of classes on its class path, and the ranks' class paths are jars.
     */
    private Child child(Path jdk, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(jdk.resolve("bin").resolve("java").toString(),
                "-Xlog:cds=off", "-Xlog:cds+dynamic=off", "-cp", childJar().toString()));
        command.addAll(List.of(args));
        Path out = dir.resolve("child.out");
        Path err = dir.resolve("child.err");
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(CHILD_BOUND_S, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            throw new AssertionError("the child JVM did not end within " + CHILD_BOUND_S + " s");
        }
        return new Child(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }
}
