package org.sperli.launcher.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sperli.launcher.exit.ExitCodes;
import org.sperli.launcher.exit.LauncherException;

/** {@code --output-dir}: DIR/JOB/INCARNATION/rank.N/{stdout,stderr}, owner-only, every line, never stuck. */
class RankOutputFilesTest {
    private static final String JOB = "0123456789abcdef0123456789abcdef";

    @TempDir
    Path dir;

    private final List<String> problems = new ArrayList<>();

    private RankOutputFiles files() {
        return RankOutputFiles.create(RankOutputFiles.prepare(dir.resolve("out")), JOB, problems::add);
    }

    @Test
    void eachRankAndIncarnationGetsItsOwnStdoutAndStderrFile() throws IOException {
        try (RankOutputFiles files = files()) {
            files.opened(1, 0, false);
            files.opened(1, 0, true);
            files.line(1, 0, false, "first");
            files.line(1, 0, false, "second");
            files.line(2, 0, false, "again");
            files.line(1, 1, true, "H1613 lost");
        }
        Path job = dir.resolve("out").resolve(JOB);
        assertEquals("first\nsecond\n", Files.readString(job.resolve("1/rank.0/stdout")));
        assertEquals("", Files.readString(job.resolve("1/rank.0/stderr")), "made at the start, empty");
        assertEquals("again\n", Files.readString(job.resolve("2/rank.0/stdout")));
        assertEquals("H1613 lost\n", Files.readString(job.resolve("1/rank.1/stderr")));
        assertEquals(List.of(), problems);
    }

    @Test
    void directoriesAreOwnerOnlyAndFilesToo() throws IOException {
        try (RankOutputFiles files = files()) {
            files.line(1, 0, false, "x");
        }
        Path job = dir.resolve("out").resolve(JOB);
        for (Path d : List.of(dir.resolve("out"), job, job.resolve("1"), job.resolve("1/rank.0"))) {
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(d)), d.toString());
        }
        assertEquals("rw-------",
                PosixFilePermissions.toString(Files.getPosixFilePermissions(job.resolve("1/rank.0/stdout"))));
    }

    @Test
    void moreRanksThanOpenFilesAreWrittenWhole() throws IOException {
        int ranks = RankOutputFiles.MAX_OPEN + 6;
        try (RankOutputFiles files = files()) {
            for (int round = 0; round < 2; round++) {
                for (int rank = 0; rank < ranks; rank++) {
                    files.line(1, rank, false, "round " + round);
                }
            }
        }
        Path job = dir.resolve("out").resolve(JOB);
        for (int rank = 0; rank < ranks; rank++) {
            assertEquals("round 0\nround 1\n", Files.readString(job.resolve("1/rank." + rank + "/stdout")));
        }
    }

    @Test
    void aFileThatCannotBeMadeIsSaidOnceAndTheCopyStops() throws IOException {
        try (RankOutputFiles files = files()) {
            // Something in the way of incarnation 1's directory.
            Files.writeString(files.jobDirectory().resolve("1"), "not a directory");
            files.line(1, 0, false, "a");
            files.line(1, 1, false, "b");
            files.line(2, 0, false, "c");
        }
        assertEquals(1, problems.size(), problems.toString());
        assertTrue(problems.get(0).startsWith("--output-dir: cannot write "), problems.get(0));
        assertTrue(problems.get(0).endsWith("; rank output is no longer copied to files"), problems.get(0));
        assertTrue(!Files.exists(dir.resolve("out").resolve(JOB).resolve("2")));
    }

    @Test
    void linesAfterCloseAreNotWritten() throws IOException {
        RankOutputFiles files = files();
        files.close();
        files.line(1, 0, false, "late");
        try (Stream<Path> left = Files.list(files.jobDirectory())) {
            assertEquals(List.of(), left.toList());
        }
    }

    @Test
    void aDirThatIsAFileIsRefusedWithStatus2() throws IOException {
        Path file = Files.writeString(dir.resolve("file"), "x");
        LauncherException e = assertThrows(LauncherException.class, () -> RankOutputFiles.prepare(file));
        assertEquals(ExitCodes.USAGE, e.exitCode());
        assertEquals("--output-dir " + file + " is not a directory", e.getMessage());
        LauncherException below = assertThrows(LauncherException.class,
                () -> RankOutputFiles.prepare(file.resolve("sub")));
        assertTrue(below.getMessage().startsWith("--output-dir " + file.resolve("sub") + ": cannot write there: "),
                below.getMessage());
    }

    @Test
    void anExistingDirKeepsItsModeAndGetsNoCheckFileLeftBehind() throws IOException {
        Path existing = Files.createDirectory(dir.resolve("shared"));
        Files.setPosixFilePermissions(existing, PosixFilePermissions.fromString("rwxr-xr-x"));
        RankOutputFiles.prepare(existing);
        assertEquals("rwxr-xr-x", PosixFilePermissions.toString(Files.getPosixFilePermissions(existing)));
        try (Stream<Path> left = Files.list(existing)) {
            assertEquals(List.of(), left.toList());
        }
    }
}
