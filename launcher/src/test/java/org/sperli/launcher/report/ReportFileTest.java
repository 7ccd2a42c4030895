package org.sperli.launcher.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sperli.launcher.exit.ExitCodes;
import org.sperli.launcher.exit.LauncherException;

/** {@code --report FILE}: checked before anything starts, written whole and atomically, the documented fields. */
class ReportFileTest {
    @TempDir
    Path dir;

    static RunReport sample() {
        RunReport.Rank killed = new RunReport.Rank(1, "localhost", 23001, "local pid 4711", 137,
                "was killed by signal 9", null, null, 1200L);
        RunReport.Rank lost = new RunReport.Rank(0, "localhost", 23000, "local pid 4710", 5,
                "exited with status 5 (a peer was lost)", "H1613", "H1613 rank 0: peer 1 lost", 1900L);
        RunReport.Incarnation first = new RunReport.Incarnation(1, "2026-12-01T09:15:02.047Z", 2500,
                RunReport.Result.FAILED, "rank 1 (local pid 4711) was killed by signal 9", List.of(lost, killed));
        RunReport.Incarnation second = new RunReport.Incarnation(2, "2026-12-01T09:15:04.600Z", 1800,
                RunReport.Result.COMPLETED, null, List.of(
                        new RunReport.Rank(0, "localhost", 23000, "local pid 4720", 0, "completed", null, null, 1700L),
                        new RunReport.Rank(1, "localhost", 23001, "local pid 4721", 0, "completed", null, null,
                                1700L)));
        return RunReport.of("0123456789abcdef0123456789abcdef", "job.jar", "ab".repeat(32), 2, 1,
                "2026-12-01T09:15:01.900Z", 4500, 0, "completed", List.of(first, second));
    }

    @Test
    void everyDocumentedFieldIsWrittenNullsIncluded() throws IOException {
        Path file = ReportFile.check(dir.resolve("report.json"));
        ReportFile.write(file, sample());

        JsonNode json = new ObjectMapper().readTree(file.toFile());
        assertEquals(List.of("format", "jobId", "jar", "jarSha256", "ranks", "restartMax", "startedAt", "durationMs",
                "exitStatus", "outcome", "incarnations", "restarts"), names(json));
        assertEquals(List.of("incarnation", "startedAt", "durationMs", "result", "reason", "ranks"),
                names(json.get("incarnations").get(0)));
        assertEquals(List.of("rank", "host", "port", "where", "exitStatus", "status", "code", "lastStderrLine",
                "durationMs"), names(json.get("incarnations").get(0).get("ranks").get(0)));
        assertEquals(1, json.get("format").asInt());
        assertEquals("H1613", json.get("incarnations").get(0).get("ranks").get(0).get("code").asText());
        assertTrue(json.get("incarnations").get(0).get("ranks").get(1).get("code").isNull());
        assertEquals("FAILED", json.get("incarnations").get(0).get("result").asText());
        assertEquals(2, json.get("restarts").get(0).get("incarnation").asInt());
        assertEquals("rank 1 (local pid 4711) was killed by signal 9",
                json.get("restarts").get(0).get("reason").asText());
    }

    @Test
    void theFileIsOwnerOnlyAndNoTemporaryFileIsLeft() throws IOException {
        Path file = ReportFile.check(dir.resolve("report.json"));
        Files.writeString(file, "old");
        ReportFile.write(file, sample());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(file), left.toList());
        }
    }

    @Test
    void aFileThatCannotBeWrittenIsRefusedWithStatus2BeforeAnythingStarts() throws IOException {
        Path missing = dir.resolve("no-such-dir").resolve("report.json");
        LauncherException e = assertThrows(LauncherException.class, () -> ReportFile.check(missing));
        assertEquals(ExitCodes.USAGE, e.exitCode());
        assertEquals("--report " + missing + ": directory " + missing.getParent() + " does not exist",
                e.getMessage());
        assertEquals("--report " + dir + " is a directory, expected a file to write",
                assertThrows(LauncherException.class, () -> ReportFile.check(dir)).getMessage());
        Path link = Files.createSymbolicLink(dir.resolve("link.json"), dir.resolve("elsewhere.json"));
        assertTrue(assertThrows(LauncherException.class, () -> ReportFile.check(link)).getMessage()
                .contains("is not a regular file"));
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(link), left.toList(), "the check leaves nothing behind");
        }
    }

    @Test
    void theSummaryLineReadsTheSameReport() {
        assertEquals("job 0123456789abcdef0123456789abcdef: completed; ranks 2, incarnations used 2 (restarts"
                + " allowed 1), duration 4.500 s, exit status 0", JobSummary.text(sample()));
        RunReport failed = RunReport.of("0123456789abcdef0123456789abcdef", "job.jar", "ab".repeat(32), 2, 0,
                "2026-12-01T09:15:01.900Z", 2600, ExitCodes.JOB_FAILED, "rank 1 (local pid 4711) was killed by"
                + " signal 9", List.of(sample().incarnations().get(0)));
        assertTrue(JobSummary.text(failed).endsWith("exit status 1; rank statuses [5 137]"), JobSummary.text(failed));
    }

    private static List<String> names(JsonNode node) {
        List<String> names = new ArrayList<>();
        for (Iterator<String> i = node.fieldNames(); i.hasNext(); ) {
            names.add(i.next());
        }
        return names;
    }
}
