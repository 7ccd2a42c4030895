package org.sperli.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sperli run --trace FILE} on real local ranks: every rank hands its part to the launcher on stderr (never
 * shown), and the launcher writes one file in Chrome's Trace Event format with both incarnations of a restarted job.
 * The rank killed by SIGKILL in incarnation 1 could not hand its part over; the others did.
 */
class TraceRunTest {
    private static final Pattern RANK_1_FIRST = Pattern.compile(".*\\[rank 1] rank=1 size=3 incarnation=1 pid=(\\d+)");

    @TempDir
    Path dir;

    @AfterEach
    void cleanUp() {
        LauncherHarness.killDescendants();
    }

    @Test
    void aRestartedJobsTraceHoldsEveryRankPartThatCouldBeHandedOver() throws IOException {
        Path jar = LauncherHarness.testJar(dir);
        List<Integer> ports = LauncherHarness.freePorts(3);
        Path trace = dir.resolve("trace.json");

        LauncherHarness.Run run = LauncherHarness.run(LauncherHarness.environment(Map.of()), line -> {
            Matcher m = RANK_1_FIRST.matcher(line);
            if (m.matches()) {
                ProcessHandle.of(Long.parseLong(m.group(1))).ifPresent(ProcessHandle::destroyForcibly);
            }
        }, command -> { }, "run", "--restart-max", "1", "--trace", trace.toString(), "--trace-events", "4096",
                "--hosts", LauncherHarness.hosts(ports, "localhost"), jar.toString(), "kill-rank-1");

        assertEquals(0, run.exitCode(), run.err());
        assertFalse(run.err().contains("sperli-trace:"), "trace lines are never shown");
        assertTrue(run.err().contains("trace of 5 rank parts in " + trace.toAbsolutePath()), run.err());
        JsonNode root = new ObjectMapper().readTree(trace.toFile());
        List<JsonNode> events = new ArrayList<>();
        root.get("traceEvents").forEach(events::add);
        for (int rank = 0; rank < 3; rank++) {
            int r = rank;
            List<Integer> runs = events.stream().filter(e -> e.get("pid").asInt() == r
                    && e.get("name").asText().equals("run")).map(e -> e.get("args").get("incarnation").asInt())
                    .toList();
            assertEquals(r == 1 ? List.of(2) : List.of(1, 2), runs, "rank " + r);
        }
        List<JsonNode> sums = events.stream().filter(e -> e.get("pid").asInt() == 0
                && e.get("name").asText().equals("recv") && e.get("args").get("incarnation").asInt() == 2).toList();
        assertEquals(List.of(1, 2), sums.stream().map(e -> e.get("args").get("peer").asInt()).sorted().toList());
        assertEquals(7, sums.get(0).get("args").get("tag").asInt());
        assertTrue(events.stream().anyMatch(e -> e.get("pid").asInt() == 0 && e.get("name").asText().equals("recv")
                && e.get("args").get("incarnation").asInt() == 1 && e.has("args") && e.get("args").has("failed")),
                "rank 0's receive from the killed rank 1 failed");
        LauncherHarness.assertNoProcessLeft();
    }
}
