package org.sperli.rankd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sperli.rankd.testjobs.HelloTestJob;
import org.sperli.rankd.testjobs.StdinTestJob;

/** A 4-rank job of real rankd processes on 127.0.0.1, and the life of each rank's PEM directory. */
@Timeout(90)
class LocalJobTest {
    @TempDir
    Path dir;

    @Test
    void fourRanksCompleteAndLeaveNoPemDirectory() throws Exception {
        Path jar = TestJars.jobJar(dir, HelloTestJob.class);
        List<String> args = List.of("--jar-sha256", TestJars.sha256(jar), jar.toString(), "x", "--y");
        LocalJob job = new LocalJob(4, 5000);
        try (RankProcesses ranks = new RankProcesses(dir)) {
            // Rank 0 alone cannot connect (it dials every higher rank), so its PEM directory stays while we look.
            RankProcess first = ranks.start(job, 0, args, Map.of());
            Path pemDir = awaitPemDirectory(first);
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(pemDir)));
            try (Stream<Path> files = Files.list(pemDir)) {
                Set<String> modes = files.map(f -> f.getFileName() + ":" + permissions(f)).collect(Collectors.toSet());
                assertEquals(Set.of("job-ca.pem:rw-------", "rank.pem:rw-------", "rank-key.pem:rw-------"), modes);
            }
            for (int rank = 1; rank < 4; rank++) {
                ranks.start(job, rank, args, Map.of());
            }
            for (int rank = 0; rank < 4; rank++) {
                RankProcess p = ranks.get(rank);
                assertEquals(0, p.exitStatus(Duration.ofSeconds(60)), p.stderr());
                String out = p.stdout();
                assertTrue(out.contains("hello rank " + rank + " of 4 args=x,--y jobLoader=sperli-job"
                        + " apiLoaderIsParent=true"), out);
                assertTrue(out.contains("rank " + rank + " got " + (rank + 3) % 4), out);
                assertEquals(List.of(), RankProcesses.tmpEntries(p), "left in java.io.tmpdir of " + p.name);
            }
        }
    }

    /**
     * The rank's own standard input carries its description and then tells it that its launcher lives; the program
     * reads an empty one at once, rather than wait for the launcher's end (or take bytes meant for the rank).
     */
    @Test
    void theProgramReadsAnEmptyStandardInput() throws Exception {
        Path jar = TestJars.jobJar(dir, StdinTestJob.class);
        try (RankProcesses ranks = new RankProcesses(dir)) {
            RankProcess p = ranks.start(new LocalJob(1, 5000), 0, List.of(jar.toString()), Map.of());
            assertEquals(0, p.exitStatus(Duration.ofSeconds(60)), p.stderr());
            assertEquals("stdin read returned -1", p.stdout().strip(), p.stderr());
        }
    }

    private static Path awaitPemDirectory(RankProcess p) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            assertTrue(p.process.isAlive(), () -> "rank 0 ended early: " + stderrOf(p));
            List<Path> entries = RankProcesses.tmpEntries(p);
            if (entries.size() == 1 && entries.get(0).getFileName().toString().startsWith(PemDirectory.PREFIX)) {
                try (Stream<Path> files = Files.list(entries.get(0))) {
                    if (files.count() == 3) {
                        return entries.get(0);
                    }
                }
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no PEM directory with three files appeared: " + stderrOf(p));
    }

    private static String permissions(Path file) {
        try {
            return PosixFilePermissions.toString(Files.getPosixFilePermissions(file));
        } catch (java.io.IOException e) {
            return "unreadable";
        }
    }

    private static String stderrOf(RankProcess p) {
        try {
            return p.stderr();
        } catch (java.io.IOException e) {
            return "?";
        }
    }

    @Test
    void sanityOfTheRankClassPath() {
        assertFalse(RankProcess.rankClassPath().contains("test-classes"));
        assertTrue(RankProcess.rankClassPath().contains("classes"));
    }
}
