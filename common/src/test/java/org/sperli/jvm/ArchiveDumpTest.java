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

        ArchiveDump.writeClassNames(List.of(launcher, dir.resolve("missing"), rank), names);

        assertEquals(List.of("java/lang/Object", "io/netty/channel/Channel", "org/sperli/rankd/Main"),
                Files.readAllLines(names, StandardCharsets.UTF_8));
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
}
