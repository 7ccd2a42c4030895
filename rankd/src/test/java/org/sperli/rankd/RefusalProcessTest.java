package org.sperli.rankd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sperli.rankd.testjobs.HelloTestJob;

/** Refusals of a real rankd process: exit 2, the H code first on the last stderr line, no stack trace. */
@Timeout(60)
class RefusalProcessTest {
    private static final Duration BOUND = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private static void assertRefused(RankProcess p, String lastLinePrefix) throws Exception {
        assertEquals(2, p.exitStatus(BOUND), p.stderr());
        assertTrue(p.lastStderrLine().startsWith(lastLinePrefix), p.stderr());
        assertFalse(p.stderr().contains("\tat "), p.stderr());
        assertFalse(p.stderr().contains("Exception"), p.stderr());
        assertEquals(List.of(), RankProcesses.tmpEntries(p), "nothing may be left in java.io.tmpdir");
    }

    @Test
    void cutDescriptionIsRefusedWithH1616() throws Exception {
        byte[] line = new LocalJob(1, 2000).line(0);
        byte[] cut = Arrays.copyOf(line, (line.length / 2) & ~1);
        try (RankProcesses ranks = new RankProcesses(dir)) {
            RankProcess p = RankProcess.start(dir, "cut", List.of(dir.resolve("none.jar").toString()), Map.of());
            ranks.ranks.add(p);
            p.feed(cut);
            p.closeInput();
            assertRefused(p, "H1616 job description refused: ");
        }
    }

    @Test
    void refusedHostIsRefusedWithH1615() throws Exception {
        Path jar = TestJars.jobJar(dir, HelloTestJob.class);
        try (RankProcesses ranks = new RankProcesses(dir)) {
            RankProcess p = ranks.start(new LocalJob(1, 2000), 0, List.of(jar.toString()),
                    Map.of("SPERLI_REFUSED_HOSTS", "example.org, 127.0.0.1"));
            assertRefused(p, "H1615 host refused: ");
        }
    }

    @Test
    void jarOfAnotherSha256IsRefusedWithH1616() throws Exception {
        Path jar = TestJars.jobJar(dir, HelloTestJob.class);
        String wrong = "0".repeat(64);
        try (RankProcesses ranks = new RankProcesses(dir)) {
            RankProcess p = ranks.start(new LocalJob(1, 2000), 0, List.of("--jar-sha256", wrong, jar.toString()),
                    Map.of());
            assertRefused(p, "H1616 jar sha256 of ");
            assertTrue(p.lastStderrLine().endsWith("expected " + wrong), p.stderr());
            assertEquals("", p.stdout(), "the job must not have run");
        }
    }
}
