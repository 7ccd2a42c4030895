package org.sperli.launcher.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.sperli.jobspec.JobDescription.HostEntry;
import org.sperli.launcher.report.RunReport;

/** The report's record of an incarnation: hosts, statuses, H codes of last stderr lines, durations by a moved clock. */
class IncarnationHistoryTest {
    private static final List<HostEntry> HOSTS = List.of(new HostEntry("localhost", 23000),
            new HostEntry("node2", 23000), new HostEntry("node3", 23000));

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final IncarnationHistory history = new IncarnationHistory(
            InstantSource.fixed(Instant.parse("2026-12-01T09:15:02.047Z")), nanos::get);

    /** A rank whose end and last stderr line the test decides. */
    private static final class FakeRank implements RankProcess {
        private final int rank;
        private final String lastLine;
        private final CompletableFuture<Integer> exited = new CompletableFuture<>();

        FakeRank(int rank, String lastLine) {
            this.rank = rank;
            this.lastLine = lastLine;
        }

        @Override
        public int rank() {
            return rank;
        }

        @Override
        public String where() {
            return "local pid " + (100 + rank);
        }

        @Override
        public CompletableFuture<Integer> exited() {
            return exited;
        }

        @Override
        public String lastStderrLine() {
            return lastLine;
        }

        @Override
        public void terminate() {
        }

        @Override
        public void kill() {
        }
    }

    @Test
    void eachRankHasItsHostStatusHCodeAndDuration() {
        history.begin(1);
        FakeRank lost = new FakeRank(0, "H1613 rank 0: peer 1 lost after 5000 ms");
        FakeRank killed = new FakeRank(1, "");
        history.started(lost);
        nanos.addAndGet(10_000_000L);
        history.started(killed);
        nanos.addAndGet(1_500_000_000L);
        killed.exited().complete(137);
        nanos.addAndGet(500_000_000L);
        lost.exited().complete(5);
        history.end(HOSTS, List.of(lost, killed), RunReport.Result.FAILED, "rank 1 was killed by signal 9");

        RunReport.Incarnation i = history.incarnations().get(0);
        assertEquals(1, i.incarnation());
        assertEquals("2026-12-01T09:15:02.047Z", i.startedAt());
        assertEquals(2010, i.durationMs());
        assertEquals(RunReport.Result.FAILED, i.result());
        assertEquals("rank 1 was killed by signal 9", i.reason());
        assertEquals(new RunReport.Rank(0, "localhost", 23000, "local pid 100", 5, "exited with status 5 (peer lost"
                + " or unreachable)", "H1613", "H1613 rank 0: peer 1 lost after 5000 ms", 2010L), i.ranks().get(0));
        assertEquals(new RunReport.Rank(1, "node2", 23000, "local pid 101", 137, "was killed by signal 9", null,
                null, 1500L), i.ranks().get(1));
        assertEquals(new RunReport.Rank(2, "node3", 23000, null, null, "not started", null, null, null),
                i.ranks().get(2));
    }

    @Test
    void aRankNotSeenToEndHasNoStatusAndNoDuration() {
        history.begin(3);
        FakeRank behind = new FakeRank(0, "still computing");
        history.started(behind);
        history.end(HOSTS.subList(0, 1), List.of(behind), RunReport.Result.FAILED, "host cut off");

        RunReport.Rank row = history.incarnations().get(0).ranks().get(0);
        assertNull(row.exitStatus());
        assertNull(row.durationMs());
        assertNull(row.code());
        assertEquals("not seen to end", row.status());
    }
}
