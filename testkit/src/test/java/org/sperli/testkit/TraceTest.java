package org.sperli.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kit's trace: a file any JSON reader reads, in Chrome's Trace Event format, with the spans a known job makes
 * (a ring of 4 ranks, then allreduces), each rank's events in time order, and the ring's bound kept.
 */
class TraceTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aRingAndAnAllreduceGiveTheirSpansWithPeersBytesAndSequenceNumbers(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("ring.json");
        JobResult result = SperliTestKit.job(KitJobs.RingAndAllreduceJob.class).ranks(4).args("3", "5").trace(file)
                .quiet().run().assertCompleted();
        assertEquals(file.toAbsolutePath(), result.trace());
        JsonNode root = JSON.readTree(file.toFile());
        assertEquals(result.jobId(), root.get("otherData").get("job").asText());
        List<JsonNode> events = new ArrayList<>();
        root.get("traceEvents").forEach(events::add);
        for (int rank = 0; rank < 4; rank++) {
            int r = rank;
            List<JsonNode> mine = events.stream().filter(e -> e.get("pid").asInt() == r).toList();
            assertEquals("rank " + r + " (127.0.0.1)", metadata(mine, "process_name"));
            Map<String, List<JsonNode>> spans = mine.stream().filter(e -> e.get("ph").asText().equals("X"))
                    .collect(Collectors.groupingBy(e -> e.get("name").asText()));
            assertEquals(1, spans.get("connect").size());
            assertEquals(3, spans.get("connect").get(0).get("args").get("peers").asInt());
            assertEquals(1, spans.get("run").size());
            assertEquals(1, spans.get("close").size());
            assertEquals(3, spans.get("send").size());
            assertEquals(3, spans.get("recv").size());
            for (JsonNode send : spans.get("send")) {
                assertEquals((r + 1) % 4, send.get("args").get("peer").asInt());
                assertEquals(5, send.get("args").get("tag").asInt());
                assertEquals(8, send.get("args").get("bytes").asInt());
            }
            for (JsonNode recv : spans.get("recv")) {
                assertEquals((r + 3) % 4, recv.get("args").get("peer").asInt());
                assertEquals(8, recv.get("args").get("bytes").asInt());
            }
            assertEquals(List.of(1, 2, 3, 4, 5), spans.get("allreduce").stream()
                    .map(e -> e.get("args").get("seq").asInt()).toList());
            assertEquals(3, mine.stream().filter(e -> e.get("name").asText().equals("HELLO checked")).count());
            JsonNode run = spans.get("run").get(0);
            for (String name : List.of("send", "recv", "allreduce")) {
                for (JsonNode span : spans.get(name)) {
                    assertTrue(within(span, run), name + " within run");
                }
            }
            assertInTimeOrder(mine);
        }
    }

    @Test
    void theRingOfEachRankKeepsItsNewestEventsOnly(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("bounded.json");
        SperliTestKit.job(KitJobs.RingAndAllreduceJob.class).ranks(2).args("200", "0").trace(file).traceEvents(16)
                .quiet().run().assertCompleted();
        List<JsonNode> events = new ArrayList<>();
        JSON.readTree(file.toFile()).get("traceEvents").forEach(events::add);
        for (int r = 0; r < 2; r++) {
            int rank = r;
            List<JsonNode> mine = events.stream().filter(e -> e.get("pid").asInt() == rank
                    && !e.get("ph").asText().equals("M") && !e.get("name").asText().equals("older events dropped"))
                    .toList();
            assertEquals(16, mine.size(), "the ring's 16 events");
            JsonNode dropped = events.stream().filter(e -> e.get("pid").asInt() == rank
                    && e.get("name").asText().equals("older events dropped")).findFirst().orElseThrow();
            // connect, one HELLO, 400 calls, run and close: 404 events, the newest 16 kept
            assertEquals(404 - 16, dropped.get("args").get("dropped").asInt());
            assertTrue(mine.stream().anyMatch(e -> e.get("name").asText().equals("close")), "the newest are kept");
            assertInTimeOrder(mine);
        }
    }

    @Test
    void aKilledAndResumedJobShowsBothIncarnationsOnTheSameTracks(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("resume.json");
        SperliTestKit.job(KitJobs.CountingJob.class).ranks(3).args("8", "2").checkpointDir(dir.resolve("ckpt"))
                .killAtCheckpoint(1, 2).restartMax(1).trace(file).quiet().run().assertCompleted();
        List<JsonNode> events = new ArrayList<>();
        JSON.readTree(file.toFile()).get("traceEvents").forEach(events::add);
        assertEquals(1, events.stream().filter(e -> e.get("name").asText().equals("killed")
                && e.get("pid").asInt() == 1).count());
        for (int r = 0; r < 3; r++) {
            int rank = r;
            List<JsonNode> runs = events.stream().filter(e -> e.get("pid").asInt() == rank
                    && e.get("name").asText().equals("run")).toList();
            assertEquals(List.of(1, 2), runs.stream().map(e -> e.get("args").get("incarnation").asInt()).toList());
            JsonNode resume = events.stream().filter(e -> e.get("pid").asInt() == rank
                    && e.get("name").asText().equals("resume")).findFirst().orElseThrow();
            assertEquals(1, resume.get("args").get("epoch").asInt(), "epoch 2 was never committed");
            assertEquals(runs.get(0).get("tid"), runs.get(1).get("tid"), "one track across incarnations");
            assertTrue(events.stream().anyMatch(e -> e.get("pid").asInt() == rank
                    && e.get("name").asText().equals("write state")), "checkpoint phases");
            assertInTimeOrder(events.stream().filter(e -> e.get("pid").asInt() == rank).toList());
        }
    }

    private static String metadata(List<JsonNode> events, String name) {
        return events.stream().filter(e -> e.get("ph").asText().equals("M") && e.get("name").asText().equals(name))
                .findFirst().orElseThrow().get("args").get("name").asText();
    }

    private static boolean within(JsonNode inner, JsonNode outer) {
        double start = inner.get("ts").asDouble();
        return start >= outer.get("ts").asDouble()
                && start + inner.get("dur").asDouble() <= outer.get("ts").asDouble() + outer.get("dur").asDouble();
    }

    /** On each thread track, events come in the file by their start. */
    private static void assertInTimeOrder(List<JsonNode> events) {
        Map<Integer, Double> last = new HashMap<>();
        for (JsonNode e : events) {
            if (e.get("ph").asText().equals("M")) {
                continue;
            }
            int tid = e.get("tid").asInt();
            double ts = e.get("ts").asDouble();
            assertTrue(ts >= last.getOrDefault(tid, Double.NEGATIVE_INFINITY), "time order at " + e);
            assertTrue(!e.has("dur") || e.get("dur").asDouble() >= 0, "duration of " + e);
            last.put(tid, ts);
        }
    }
}
