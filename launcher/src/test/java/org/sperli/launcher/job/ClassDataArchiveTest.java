package org.sperli.launcher.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sperli.testing.Jdks;
import org.sperli.crypto.AccpLibrary;

/**
 * Which lines of the JVMs' class lists go into the merged list the archive is dumped from, which rank JVM takes the
 * archive, trains for the AOT cache or takes that, and what the launcher makes after a job.
 */
class ClassDataArchiveTest {
    /** A launcher pid for tests that make nothing: only the file names carry it. */
    private static final long LAUNCHER_PID = 4242;
    /** The options of a rank that loads the native crypto. */
    private static final List<String> NATIVE = List.of("java", AccpLibrary.NATIVE_ACCESS, "-cp", "x.jar");

    /** A one-rank job makes no connection, so its class list would leave Netty and TLS out of the archive. */
    @Test
    void onlyRankOneListsItsClassesSoAOneRankJobMakesNoArchive(@TempDir Path dir) throws Exception {
        ClassDataArchive archive = new ClassDataArchive(dir.resolve("sperli-x"), dir.resolve("x.jar"), "java", 17,
                LAUNCHER_PID);
        assertEquals(List.of(), archive.rankOptions(0, NATIVE));
        assertEquals(List.of("-XX:DumpLoadedClassList=" + dir.resolve("sperli-x.rank.classlist")),
                archive.rankOptions(1, NATIVE));
        assertEquals(List.of(), archive.rankOptions(2, NATIVE));
        Files.writeString(dir.resolve("sperli-x.jsa"), "");
        for (int rank = 0; rank < 3; rank++) {
            assertEquals(List.of("-XX:SharedArchiveFile=" + dir.resolve("sperli-x.jsa")),
                    archive.rankOptions(rank, NATIVE));
        }
        assertTrue(archive.makeIfMissing(true).isEmpty(), "nothing to make once the archive exists");
    }

    @Test
    void onJdk25RankOneOfTheJobAfterTheArchiveIsTheQuietTrainingRunThenEveryRankTakesTheAotCache(@TempDir Path dir)
            throws Exception {
        ClassDataArchive archive = new ClassDataArchive(dir.resolve("sperli-x"), dir.resolve("x.jar"), "java", 25,
                LAUNCHER_PID);
        assertEquals(List.of("-XX:DumpLoadedClassList=" + dir.resolve("sperli-x.rank.classlist")),
                archive.rankOptions(1, NATIVE), "the archive comes first: the launcher uses it too");
        Files.writeString(dir.resolve("sperli-x.jsa"), "");
        List<String> training = archive.rankOptions(1, NATIVE);
        assertEquals(List.of("-XX:AOTMode=record", "-XX:AOTConfiguration=" + dir.resolve("sperli-x.rank-"
                + LAUNCHER_PID + ".aotconf")), training.subList(0, 2));
        assertTrue(training.contains("-XX:-DisplayVMOutput"), "no 'AOTConfiguration recorded' line in the output");
        assertEquals(List.of("-XX:SharedArchiveFile=" + dir.resolve("sperli-x.jsa")), archive.rankOptions(0, NATIVE));
        Files.writeString(dir.resolve("sperli-x.aot"), "");
        for (int rank = 0; rank < 3; rank++) {
            assertEquals(List.of("-XX:AOTCache=" + dir.resolve("sperli-x.aot"), "-Xlog:aot=off"),
                    archive.rankOptions(rank, NATIVE));
        }
    }

    /** The JVM refuses a cache made with other module options, and says so on the rank's output. */
    @Test
    void aRankWithoutNativeAccessNeitherTrainsNorTakesTheAotCache(@TempDir Path dir) throws Exception {
        ClassDataArchive archive = new ClassDataArchive(dir.resolve("sperli-x"), dir.resolve("x.jar"), "java", 25,
                LAUNCHER_PID);
        Files.writeString(dir.resolve("sperli-x.jsa"), "");
        List<String> archiveOnly = List.of("-XX:SharedArchiveFile=" + dir.resolve("sperli-x.jsa"));
        assertEquals(archiveOnly, archive.rankOptions(1, List.of()));
        Files.writeString(dir.resolve("sperli-x.aot"), "");
        assertEquals(archiveOnly, archive.rankOptions(0, List.of()));
    }

    /** JDK 25 ends with "Option AOTCache cannot be used at the same time with -Xshare:off, ..." instead. */
    @Test
    void anOperatorsSharingOptionKeepsTheAotOptionsOffTheLine(@TempDir Path dir) throws Exception {
        ClassDataArchive archive = new ClassDataArchive(dir.resolve("sperli-x"), dir.resolve("x.jar"), "java", 25,
                LAUNCHER_PID);
        Files.writeString(dir.resolve("sperli-x.jsa"), "");
        Files.writeString(dir.resolve("sperli-x.aot"), "");
        for (String option : List.of("-Xshare:off", "-Xshare:auto", "-XX:SharedArchiveFile=/x.jsa",
                "-XX:AOTMode=off", "-XX:ArchiveClassesAtExit=/y.jsa")) {
            List<String> options = new ArrayList<>(NATIVE);
            options.add(option);
            assertEquals(List.of("-XX:SharedArchiveFile=" + dir.resolve("sperli-x.jsa")),
                    archive.rankOptions(0, options), option);
        }
    }

    /** A rank stopped in the middle of its training run may have written half a configuration. */
    @Test
    void theTrainingOfAJobThatDidNotCompleteIsDroppedNotMadeIntoACache(@TempDir Path dir) throws Exception {
        ClassDataArchive archive = new ClassDataArchive(dir.resolve("sperli-x"), dir.resolve("x.jar"), "java", 25,
                LAUNCHER_PID);
        Files.writeString(dir.resolve("sperli-x.jsa"), "");
        Files.writeString(archive.aotConfiguration(), "half");
        assertEquals(Optional.empty(), archive.makeIfMissing(false));
        assertFalse(Files.exists(archive.aotConfiguration()));
        assertFalse(Files.exists(archive.aotCache()));
    }

    @Test
    void aTrainingLeftByALauncherThatIsGoneIsRemovedAndOneOfARunningLauncherKept(@TempDir Path dir) throws Exception {
        Process ended = new ProcessBuilder("true").start();
        ended.waitFor();
        Path orphan = dir.resolve("sperli-x.rank-" + ended.pid() + ".aotconf");
        Path running = dir.resolve("sperli-x.rank-" + ProcessHandle.current().pid() + ".aotconf");
        Path otherBuild = dir.resolve("sperli-y.rank-" + ended.pid() + ".aotconf");
        for (Path p : List.of(orphan, running, otherBuild)) {
            Files.writeString(p, "");
        }
        new ClassDataArchive(dir.resolve("sperli-x"), dir.resolve("x.jar"), "java", 25, LAUNCHER_PID)
                .makeIfMissing(true);
        assertFalse(Files.exists(orphan));
        assertTrue(Files.exists(running));
        assertTrue(Files.exists(otherBuild), "another jar's files are not this archive's to judge");
    }

    /**
     * The real thing on a JDK 25 of this machine: a training run of a small program, the cache made from it, and a
     * JVM that takes it without a word; one with other module options starts without it, also without a word.
     */
    @Test
    void aJdk25MakesTheCacheFromTheTrainingRunAndAJvmTakesItQuietly(@TempDir Path dir) throws Exception {
        Optional<Path> java = Jdks.atLeast(25).map(home -> home.resolve("bin").resolve("java"));
        assumeTrue(java.isPresent(), "no JDK 25 or later in /usr/lib/jvm or this JVM: the AOT cache is not tried");
        Path jar = helloJar(dir);
        ClassDataArchive archive = new ClassDataArchive(dir.resolve("sperli-x"), jar, java.get().toString(), 25,
                ProcessHandle.current().pid());
        Files.writeString(dir.resolve("sperli-x.jsa"), "");
        List<String> program = List.of("-cp", jar.toString(), "Hello", "world");
        List<String> plain = new ArrayList<>(List.of(java.get().toString(), AccpLibrary.NATIVE_ACCESS));
        plain.addAll(program);
        String output = run(plain);
        List<String> training = new ArrayList<>(List.of(java.get().toString(), AccpLibrary.NATIVE_ACCESS));
        training.addAll(archive.rankOptions(1, training));
        training.addAll(program);
        assertEquals(output, run(training), "the training run prints only the program's own output");
        Optional<String> note = archive.makeIfMissing(true);
        assertEquals(Optional.of("made an AOT cache for faster rank starts on this JDK: " + archive.aotCache()), note);
        assertFalse(Files.exists(archive.aotConfiguration()), "the configuration is gone once used");
        List<String> using = new ArrayList<>(List.of(java.get().toString(), AccpLibrary.NATIVE_ACCESS,
                "-Xlog:class+load=info"));
        using.addAll(archive.rankOptions(0, using));
        using.addAll(program);
        String log = run(using);
        assertTrue(log.contains("Hello source: shared objects file"), "the program's class from the cache, not the"
                + " jar:\n" + log.lines().filter(l -> l.contains("Hello")).findFirst().orElse(log));
        List<String> otherModules = new ArrayList<>(List.of(java.get().toString()));
        otherModules.addAll(archive.rankOptions(0, NATIVE));
        assertTrue(otherModules.get(1).startsWith("-XX:AOTCache="), "the cache given, and not taken: " + otherModules);
        otherModules.addAll(program);
        assertEquals(output, run(otherModules), "a JVM that cannot use the cache says nothing about it");
    }

    /** A jar with one class, Hello, whose main says hello to its arguments. */
    /**
     * The ranks' archive and the launcher's are made apart, each from its own list (the launcher's with the classes of
     * an SSH launch): a JVM maps, and relocates, only what it uses. A job without local ranks makes the launcher's
     * alone, and the ranks' follows with the first job that lists a rank's classes.
     */
    @Test
    void theRanksArchiveAndTheLaunchersAreMadeApartEachFromItsOwnList(@TempDir Path dir) throws Exception {
        Path jar = helloJar(dir);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ClassDataArchive archive = new ClassDataArchive(dir.resolve("sperli-x"), jar, java, 17, LAUNCHER_PID);
        Files.writeString(dir.resolve("sperli-x.launcher.classlist"), "java/lang/Object id: 0\n");

        assertEquals(Optional.of("made the launcher's class-data archive: " + archive.launcherArchive()),
                archive.makeIfMissing(true));
        assertFalse(Files.exists(archive.archive()), "no rank listed its classes, so no ranks' archive");

        Files.writeString(dir.resolve("sperli-x.rank.classlist"), "java/lang/Object id: 0\nHello id: 1\n");

        assertEquals(Optional.of("made a class-data archive for faster starts on this JDK: " + archive.archive()),
                archive.makeIfMissing(true));
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of("sperli-x.jsa", "sperli-x.launcher.jsa"), files.map(f -> f.getFileName().toString())
                    .filter(name -> name.startsWith("sperli-x")).sorted().toList(), "the lists are used up");
        }
        assertTrue(classSource(java, archive.archive(), jar).contains("Hello source: shared objects file"));
        assertFalse(classSource(java, archive.launcherArchive(), jar).contains("Hello source: shared objects file"),
                "the rank's class is not the launcher's to map");
        assertEquals(Optional.empty(), archive.makeIfMissing(true));
    }

    private static String classSource(String java, Path archive, Path jar) throws Exception {
        return run(List.of(java, AccpLibrary.NATIVE_ACCESS, "-XX:SharedArchiveFile=" + archive, "-Xshare:on",
                "-Xlog:class+load=info", "-cp", jar.toString(), "Hello")).lines()
                .filter(l -> l.contains(" Hello source:")).findFirst().orElse("");
    }

    private static Path helloJar(Path dir) throws Exception {
        Path source = dir.resolve("Hello.java");
        Files.writeString(source, "public class Hello { public static void main(String[] a) {"
                + " System.out.println(\"hello \" + String.join(\" \", a)); } }");
        Path classes = Files.createDirectory(dir.resolve("classes"));
        int javac = ToolProvider.getSystemJavaCompiler().run(null, null, null, "--release", "17", "-d",
                classes.toString(), source.toString());
        assertEquals(0, javac, "javac of Hello.java");
        Path jar = dir.resolve("hello.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            out.putNextEntry(new JarEntry("Hello.class"));
            out.write(Files.readAllBytes(classes.resolve("Hello.class")));
            out.closeEntry();
        }
        return jar;
    }

    private static String run(List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "ended within 60 s: " + command);
        return new String(out, StandardCharsets.UTF_8);
    }
}
