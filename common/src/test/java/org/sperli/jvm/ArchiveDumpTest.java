package org.sperli.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The class names an archive is made from are each list's kept lines, once and in the order first seen; the child
 * that makes an archive counts only when it exits with 0 and wrote its file, and never outlives its bound.
 */
class ArchiveDumpTest {
    @TempDir
    Path dir;

    @Test
    void theNamesOfSeveralListsAreKeptOnceInTheOrderFirstSeenAndAMissingListIsSkipped() throws IOException {
        Path launcher = Files.writeString(dir.resolve("launcher.classlist"),
                "# NOTE\njava/lang/Object id: 0\nio/netty/channel/Channel id: 7\n@lambda-proxy a b\n");
        Path rank = Files.writeString(dir.resolve("rank.classlist"),
                "io/netty/channel/Channel id: 3\norg/sperli/job/Main id: 9 super: 0 source: /tmp/job.jar\n"
                        + "org/sperli/rankd/Main id: 4\n");
        Path names = dir.resolve("names");

        ArchiveDump.writeList(List.of(launcher, dir.resolve("missing"), rank), names, false);

        assertEquals(List.of("java/lang/Object", "io/netty/channel/Channel", "org/sperli/rankd/Main"),
                Files.readAllLines(names, StandardCharsets.UTF_8));
    }

    @Test
    void withLambdasTheLambdaLinesStayWhereTheyStoodAndEachIsKeptOnce() throws IOException {
        Path first = Files.writeString(dir.resolve("first.classlist"), "java/lang/Object id: 0\n"
                + "@lambda-proxy a/B run ()V\n@cp a/B 1 2\n@lambda-form-invoker [LF_RESOLVE] x y LL_L\n");
        Path second = Files.writeString(dir.resolve("second.classlist"), "@lambda-proxy a/B run ()V\nc/D id: 2\n");
        Path names = dir.resolve("names");

        ArchiveDump.writeList(List.of(first, second), names, true);

        assertEquals(List.of("java/lang/Object", "@lambda-proxy a/B run ()V",
                "@lambda-form-invoker [LF_RESOLVE] x y LL_L", "c/D"), Files.readAllLines(names, StandardCharsets.UTF_8));
    }

    @Test
    void aDumpOfTheLambdasThatFailsIsMadeAgainFromTheClassNamesAloneAndLeavesNoCrashReport() throws Exception {
        assertEquals(List.of("java/lang/Object"), archivedBy(fakeJava(true)));
        assertFalse(Files.exists(dir.resolve("partial.jsa.crash.log")), "the crash report is left behind");
    }

    @Test
    void aDumpThatTakesTheLambdasKeepsThem() throws Exception {
        assertEquals(List.of("java/lang/Object", "@lambda-proxy a/B run ()V"), archivedBy(fakeJava(false)));
    }

    @Test
    void aDumpThatFailsWithoutTheLambdasTooIsAFailure() throws IOException {
        Path list = Files.writeString(dir.resolve("rank.classlist"), "java/lang/Object\n");
        Path failing = Files.writeString(dir.resolve("failing-java"), "#!/bin/sh\nexit 134\n");
        failing.toFile().setExecutable(true);

        IOException failed = assertThrows(IOException.class, () -> ArchiveDump.dumpStatic(failing.toString(),
                List.of(), List.of(list), dir.resolve("names"), dir.resolve("partial.jsa"), "a.jar"));

        assertEquals("the JVM that makes it exited with 134", failed.getMessage());
    }

    @Test
    void theDumpCommandCarriesTheGivenOptionsBeforeTheDump() {
        assertEquals(List.of("java", "--enable-native-access=ALL-UNNAMED", "-Xshare:dump",
                "-XX:SharedClassListFile=n", "-XX:SharedArchiveFile=p", "-cp", "a.jar"),
                ArchiveDump.staticDumpCommand("java", List.of("--enable-native-access=ALL-UNNAMED"), Path.of("n"),
                        Path.of("p"), "a.jar"));
    }

    @Test
    void aChildThatExitsWithZeroAndWroteItsFileSucceeds() throws Exception {
        Path out = dir.resolve("out.jsa");

        ArchiveDump.run(List.of("sh", "-c", "echo archive > " + out), out);

        assertTrue(Files.isRegularFile(out));
    }

    @Test
    void aChildThatFailsOrWritesNothingIsAFailureThatSaysSo() {
        Path out = dir.resolve("out.jsa");

        IOException failed = assertThrows(IOException.class, () -> ArchiveDump.run(List.of("sh", "-c", "exit 3"), out));
        IOException nothing = assertThrows(IOException.class, () -> ArchiveDump.run(List.of("sh", "-c", "true"), out));

        assertEquals("the JVM that makes it exited with 3", failed.getMessage());
        assertEquals("the JVM that makes it exited with 0", nothing.getMessage());
    }

    @Test
    void aChildThatOutlivesItsBoundIsEndedBeforeTheCallReturns() throws Exception {
        Path pidFile = dir.resolve("pid");
        Path out = dir.resolve("out.jsa");

        IOException slow = assertThrows(IOException.class, () -> ArchiveDump.run(
                List.of("sh", "-c", "echo $$ > " + pidFile + "; exec sleep 60"), out, 1));

        assertEquals("the dump took over 1 s", slow.getMessage());
        long pid = Long.parseLong(Files.readString(pidFile).strip());
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "the child still runs");
    }

    @Test
    void aDumpThatRunsPastItsBoundIsNotTriedAgain() throws IOException {
        Path list = Files.writeString(dir.resolve("rank.classlist"), "java/lang/Object\n@lambda-proxy a/B run ()V\n");
        Path starts = dir.resolve("starts");
        Path slow = Files.writeString(dir.resolve("slow-java"), "#!/bin/sh\necho start >> " + starts
                + "\nexec sleep 60\n");
        slow.toFile().setExecutable(true);

        IOException failed = assertThrows(ArchiveDump.TimedOut.class, () -> ArchiveDump.dumpStatic(slow.toString(),
                List.of(), List.of(list), dir.resolve("names"), dir.resolve("partial.jsa"), "a.jar", 1));

        assertEquals("the dump took over 1 s", failed.getMessage());
        assertEquals(List.of("start"), Files.readAllLines(starts, StandardCharsets.UTF_8));
    }

    /** What {@code java} archived of a list with a class and a lambda, through {@link ArchiveDump#dumpStatic}. */
    private List<String> archivedBy(Path java) throws Exception {
        Path list = Files.writeString(dir.resolve("rank.classlist"), "java/lang/Object\n@lambda-proxy a/B run ()V\n");
        Path partial = dir.resolve("partial.jsa");
        ArchiveDump.dumpStatic(java.toString(), List.of(), List.of(list), dir.resolve("names"), partial, "a.jar");
        return Files.readAllLines(partial, StandardCharsets.UTF_8);
    }

    /**
     * A stand-in for {@code java -Xshare:dump} that copies its class list to the archive; with {@code crashOnLambdas}
     * it writes its crash report and fails, as a JVM that crashes, when the list holds a lambda line.
     */
    private Path fakeJava(boolean crashOnLambdas) throws IOException {
        String script = "#!/bin/sh\nfor a; do case \"$a\" in -XX:SharedClassListFile=*) list=\"${a#*=}\";;"
                + " -XX:SharedArchiveFile=*) out=\"${a#*=}\";; -XX:ErrorFile=*) err=\"${a#*=}\";; esac; done\n"
                + (crashOnLambdas ? "if grep -q '^@' \"$list\"; then echo crash > \"$err\"; exit 134; fi\n" : "")
                + "cp \"$list\" \"$out\"\n";
        Path java = Files.writeString(dir.resolve("java"), script);
        java.toFile().setExecutable(true);
        return java;
    }
}
