package org.sperli.rankd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sperli.rankd.testjobs.HelloTestJob;
import org.sperli.rankd.testjobs.OpenFileLimitTestJob;

/** A real rankd process under a low {@code nofile} limit, set with util-linux {@code prlimit}. */
@Timeout(60)
class OpenFileLimitProcessTest {
    private static final Duration BOUND = Duration.ofSeconds(30);
    private static final Path PRLIMIT = Path.of("/usr/bin/prlimit");

    @TempDir
    Path dir;

    @Test
    void aRankWhoseHardLimitCannotHoldItsConnectionsRefusesInOneLineBeforeItConnects() throws Exception {
        assumeTrue(Files.isExecutable(PRLIMIT), "needs " + PRLIMIT);
        Path jar = TestJars.jobJar(dir, HelloTestJob.class);
        LocalJob job = new LocalJob(100, 2000);
        try (RankProcesses ranks = new RankProcesses(dir)) {
            RankProcess p = RankProcess.start(dir, "rank-0", List.of(PRLIMIT.toString(), "--nofile=200:200", "--"),
                    List.of(jar.toString()), Map.of());
            ranks.ranks.add(p);
            p.feed(job.line(0));
            assertEquals(2, p.exitStatus(BOUND), p.stderr());
            assertEquals("H1616 job description refused: a job of 100 ranks needs 227 open files in each rank (99"
                    + " connections and 128 for the JVM and its files), but this rank's limit (nofile) is 200, its hard"
                    + " limit 200; raise the hard limit of the rank's user on host 127.0.0.1 (limits.conf, systemd"
                    + " LimitNOFILE) to at least 227", p.lastStderrLine());
            assertTrue(!p.stderr().contains("sperli-rank: listening"), "it must refuse before it listens: "
                    + p.stderr());
        }
    }

    @Test
    void theRankRunsWithItsSoftLimitRaisedToTheHardOne() throws Exception {
        assumeTrue(Files.isExecutable(PRLIMIT), "needs " + PRLIMIT);
        Path jar = TestJars.jobJar(dir, OpenFileLimitTestJob.class);
        try (RankProcesses ranks = new RankProcesses(dir)) {
            RankProcess p = RankProcess.start(dir, "rank-0", List.of(PRLIMIT.toString(), "--nofile=200:4096", "--"),
                    List.of(jar.toString()), Map.of());
            ranks.ranks.add(p);
            p.feed(new LocalJob(1, 2000).line(0));
            assertEquals(0, p.exitStatus(BOUND), p.stderr());
            assertEquals(new OpenFileLimit(4096, 4096), OpenFileLimit.parse(p.stdout().lines().toList()),
                    p.stdout());
        }
    }
}
