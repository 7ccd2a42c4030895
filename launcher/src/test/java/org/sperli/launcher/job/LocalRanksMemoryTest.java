package org.sperli.launcher.job;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sperli.launcher.LauncherHarness;
import org.sperli.launcher.exit.ExitCodes;
import org.sperli.launcher.exit.LauncherException;
import org.sperli.launcher.report.Console;

/** Local ranks that grew by ranks moved here are judged by this host's memory, as before the start. */
class LocalRanksMemoryTest {
    @TempDir
    Path dir;

    private LocalRanks localRanks(String rankdOrNull) throws Exception {
        Path meminfo = Files.writeString(dir.resolve("meminfo"), "MemTotal: 200000 kB\nMemAvailable: 100000 kB\n"
                + "SwapFree: 0 kB\n");
        PrintWriter out = new PrintWriter(new StringWriter(), true);
        return new LocalRanks(RankCommand.of(rankdOrNull, Map.of()), JobJar.open(LauncherHarness.testJar(dir)),
                List.of(), null, Map.of(), new Console(out, out, false, false, false), meminfo, dir);
    }

    @Test
    void moreLocalRankDaemonsThanThisHostsMemoryHoldsAreRefusedBeforeAnyStarts() throws Exception {
        LocalRanks ranks = localRanks(null);

        // 97.7 MiB available: one rank JVM at 64 MiB fits, two do not.
        assertDoesNotThrow(() -> ranks.prepare("localhost", List.of(23000)));
        LauncherException refused = assertThrows(LauncherException.class,
                () -> ranks.prepare("localhost", List.of(23000, 23001)));

        assertEquals(ExitCodes.START_FAILED, refused.exitCode());
        assertEquals("2 local ranks need at least 128 MiB of memory (64 MiB a rank JVM), and this host has 97 MiB"
                + " available with its free swap: nothing was started; run fewer ranks here, or spread them over"
                + " hosts with --hosts or --hostfile", refused.getMessage());
        assertEquals(false, ranks.startedAny());
    }

    @Test
    void ranksOfAnotherRankCommandAreNotJudged() throws Exception {
        LocalRanks ranks = localRanks("my-rankd --flag");

        assertDoesNotThrow(() -> ranks.prepare("localhost", IntStream.range(23000, 23000 + 4096).boxed().toList()));
    }
}
