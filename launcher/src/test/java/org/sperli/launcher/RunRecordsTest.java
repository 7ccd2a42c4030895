package org.sperli.launcher;

import org.sperli.launcher.command.LaunchEnvironment;
import org.sperli.launcher.exit.ExitCodes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sperli.jvm.Clock;
import org.sperli.launcher.report.LineTimestamps;

/**
 * What a run leaves for people and CI besides the terminal, on real local ranks: {@code --output-dir} (a file per
 * rank, stream and incarnation), {@code --timestamp-output} (stamps from the injected clock) and {@code --report}
 * (the JSON summary, also when the job fails).
 */
class RunRecordsTest {
    private static final Pattern RANK_1_FIRST = Pattern.compile(".*\\[rank 1] rank=1 size=4 incarnation=1 pid=(\\d+)");
    /**
     * The launcher's wall time, which stands still from the test's start: every stamp is this one. It is the
     * system's time then, because the ranks check the certificates and join tokens it dates against their own clocks.
     */
    private final Instant at = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    private final String stamp = LineTimestamps.FORMAT.format(at);

    @TempDir
    Path dir;

    @AfterEach
    void cleanUp() {
        LauncherHarness.killDescendants();
    }

    private LaunchEnvironment frozenClock() {
        Map<String, String> env = new HashMap<>(LauncherHarness.environment(Map.of()).variables());
        Clock wallTimeStandsStill = new Clock() {
            @Override
            public long nanoTime() {
                return Clock.SYSTEM.nanoTime();
            }

            @Override
            public Instant instant() {
                return at;
            }
        };
        return new LaunchEnvironment(env, false, wallTimeStandsStill);
    }

    @Test
    void aRestartedJobLeavesEachIncarnationsStampedOutputInFilesAndAReportOfBoth() throws IOException {
        Path jar = LauncherHarness.testJar(dir);
        List<Integer> ports = LauncherHarness.freePorts(4);
        Path out = dir.resolve("out");
        Path report = dir.resolve("report.json");

        LauncherHarness.Run run = LauncherHarness.run(frozenClock(), line -> {
            Matcher m = RANK_1_FIRST.matcher(line);
            if (m.matches()) {
                ProcessHandle.of(Long.parseLong(m.group(1))).ifPresent(ProcessHandle::destroyForcibly);
            }
        }, command -> { }, "run", "--restart-max", "1", "--output-dir", out.toString(), "--timestamp-output",
                "--report", report.toString(), "--hosts", LauncherHarness.hosts(ports, "localhost"), jar.toString(),
                "kill-rank-1");

        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains(stamp + " [rank 0] sum=6 incarnation=2\n"), run.out());
        JsonNode json = new ObjectMapper().readTree(report.toFile());
        String job = json.get("jobId").asText();
        Path files = out.resolve(job);
        assertTrue(run.err().contains("rank output also in " + files + "/INCARNATION/rank.N/{stdout,stderr}"),
                run.err());
        assertTrue(Files.readString(files.resolve("1/rank.1/stdout")).startsWith(stamp + " rank=1 size=4"
                + " incarnation=1 pid="), "no [rank N] prefix, the stamp first");
        assertTrue(Files.readString(files.resolve("2/rank.0/stdout")).contains(stamp + " sum=6 incarnation=2\n"));
        for (int rank = 0; rank < 4; rank++) {
            assertTrue(Files.isRegularFile(files.resolve("2/rank." + rank + "/stderr")), "stderr of rank " + rank);
        }
        assertNoDescriptionIn(out);

        assertEquals(0, json.get("exitStatus").asInt());
        assertEquals(stamp, json.get("startedAt").asText());
        assertEquals(2, json.get("incarnations").size());
        JsonNode first = json.get("incarnations").get(0);
        assertEquals("FAILED", first.get("result").asText());
        assertTrue(first.get("reason").asText().matches("rank 1 \\(local pid \\d+\\) was killed by signal 9"),
                first.get("reason").asText());
        assertEquals(137, first.get("ranks").get(1).get("exitStatus").asInt());
        assertEquals("localhost", first.get("ranks").get(1).get("host").asText());
        assertEquals(ports.get(1).intValue(), first.get("ranks").get(1).get("port").asInt());
        assertEquals(List.of(Map.of("incarnation", 2, "reason", first.get("reason").asText())),
                new ObjectMapper().convertValue(json.get("restarts"), List.class));
        JsonNode second = json.get("incarnations").get(1);
        assertEquals("COMPLETED", second.get("result").asText());
        for (JsonNode rank : second.get("ranks")) {
            assertEquals(0, rank.get("exitStatus").asInt(), rank.toString());
            assertTrue(rank.get("durationMs").asLong() > 0, rank.toString());
        }
        LauncherHarness.assertNoProcessLeft();
    }

    @Test
    void aFailedJobStillWritesItsReportWithEachRanksHCode() throws IOException {
        Path jar = LauncherHarness.testJar(dir);
        List<Integer> ports = LauncherHarness.freePorts(2);
        Path out = dir.resolve("out");
        Path report = dir.resolve("report.json");

        LauncherHarness.Run run = LauncherHarness.run(frozenClock(), "run", "--rankd",
                "/bin/sh -c 'echo H1616 job description refused: test >&2; exit 2'", "--output-dir", out.toString(),
                "--report", report.toString(), "--hosts", LauncherHarness.hosts(ports, "localhost"), jar.toString());

        assertEquals(ExitCodes.START_FAILED, run.exitCode(), run.err());
        JsonNode json = new ObjectMapper().readTree(report.toFile());
        assertEquals(ExitCodes.START_FAILED, json.get("exitStatus").asInt());
        assertTrue(json.get("restarts").isEmpty());
        // Both ranks refuse at once, but the launcher stops the job at the first refusal it sees: on a busy machine
        // the other rank may be terminated (SIGTERM, 143) before its shell has run. Every rank that ran says why.
        int refused = -1;
        for (JsonNode rank : json.get("incarnations").get(0).get("ranks")) {
            if (rank.get("exitStatus").asInt() == 128 + 15) {
                assertEquals("was killed by signal 15", rank.get("status").asText(), rank.toString());
                continue;
            }
            assertEquals(2, rank.get("exitStatus").asInt(), rank.toString());
            assertEquals("H1616", rank.get("code").asText(), rank.toString());
            assertEquals("H1616 job description refused: test", rank.get("lastStderrLine").asText());
            assertEquals("exited with status 2 (job description refused)", rank.get("status").asText());
            refused = rank.get("rank").asInt();
        }
        assertTrue(refused >= 0, "no rank's refusal is in the report");
        String job = json.get("jobId").asText();
        assertEquals("H1616 job description refused: test\n",
                Files.readString(out.resolve(job).resolve("1/rank." + refused + "/stderr")),
                "no timestamps without the option");
        LauncherHarness.assertNoProcessLeft();
    }

    /** A job description is a line of thousands of hex digits; none may reach a file. */
    private static void assertNoDescriptionIn(Path root) throws IOException {
        Pattern longHex = Pattern.compile("[0-9a-fA-F]{200,}");
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.filter(Files::isRegularFile).toList()) {
                assertFalse(longHex.matcher(Files.readString(p)).find(), "a long hex run in " + p);
            }
        }
    }
}
