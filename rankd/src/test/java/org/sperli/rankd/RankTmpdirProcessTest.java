package org.sperli.rankd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sperli.jobspec.RankTmpdir;
import org.sperli.rankd.testjobs.HelloTestJob;

/** A rank started with {@code SPERLI_RANK_TMPDIR} keeps what it leaves on disk in that directory. */
@Timeout(90)
class RankTmpdirProcessTest {
    private static final Duration START_BOUND = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    /**
     * Rank 0 of two, alone (it waits for its peer), with the agent's directory in the variable and another one as
     * its {@code -Djava.io.tmpdir}: its PEM directory appears in the agent's, and leaves it when the rank stops.
     */
    @Test
    void aRankGivenSperliRankTmpdirWritesItsPemDirectoryThere() throws Exception {
        Path agentDir = Files.createDirectories(dir.resolve("agent"));
        Path jar = TestJars.jobJar(dir, HelloTestJob.class);
        try (RankProcesses ranks = new RankProcesses(dir)) {
            RankProcess rank = ranks.start(new LocalJob(2, 2000), 0, List.of(jar.toString()),
                    Map.of(RankTmpdir.VARIABLE, agentDir.toString()));
            long deadline = System.nanoTime() + START_BOUND.toNanos();
            while (pemDirectories(agentDir).isEmpty() && pemDirectories(rank.tmpdir).isEmpty()) {
                assertTrue(rank.process.isAlive() && System.nanoTime() < deadline,
                        "no PEM directory anywhere; stderr:\n" + rank.stderr());
                Thread.sleep(20);
            }
            assertEquals(List.of(), pemDirectories(rank.tmpdir), "the JVM's own temporary directory");
            assertEquals(1, pemDirectories(agentDir).size(), "the agent's directory");
            rank.closeInput();
            assertEquals(8, rank.exitStatus(Duration.ofSeconds(10)), rank.stderr());
            assertEquals(List.of(), pemDirectories(agentDir), "removed when the rank stopped");
        }
    }

    private static List<Path> pemDirectories(Path parent) throws IOException {
        try (Stream<Path> entries = Files.list(parent)) {
            return entries.filter(e -> e.getFileName().toString().startsWith(PemDirectory.PREFIX)).toList();
        }
    }
}
