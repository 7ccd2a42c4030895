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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sperli.launcher.LauncherHarness;
import org.sperli.launcher.exit.ExitCodes;
import org.sperli.launcher.exit.LauncherException;
import org.sperli.launcher.report.Console;

/** Ranks moved here are judged by this host's ephemeral port range, as the local ranks were before the start. */
class LocalRanksPortsTest {
    @TempDir
    Path dir;

    private LocalRanks localRanks(String rankdOrNull) throws Exception {
        Files.writeString(dir.resolve(EphemeralPorts.RANGE_FILE), "32768\t60999\n");
        Path meminfo = Files.writeString(dir.resolve("meminfo"), "MemAvailable: 100000000 kB\n");
        PrintWriter out = new PrintWriter(new StringWriter(), true);
        return new LocalRanks(RankCommand.of(rankdOrNull, Map.of()), JobJar.open(LauncherHarness.testJar(dir)),
                List.of(), null, Map.of(), new Console(out, out, false, false, false), meminfo, dir);
    }

    @Test
    void aRankMovedHereOntoAPortOfThisHostsEphemeralRangeIsRefusedBeforeAnyStarts() throws Exception {
        LocalRanks ranks = localRanks(null);

        assertDoesNotThrow(() -> ranks.prepare("localhost", List.of(23000, 23001)));
        LauncherException refused = assertThrows(LauncherException.class,
                () -> ranks.prepare("localhost", List.of(23000, 40000)));

        assertEquals(ExitCodes.START_FAILED, refused.exitCode());
        assertEquals("port 40000 of the local ranks lies in this host's ephemeral port range 32768-60999"
                + " (/proc/sys/net/ipv4/ip_local_port_range), from which the kernel gives outgoing connections their"
                + " ports, so a rank could find its port taken: nothing was started; give --port-base 32766 or lower"
                + " (and host:port entries below 32768), or reserve the ports with sysctl"
                + " net.ipv4.ip_local_reserved_ports", refused.getMessage());
        assertEquals(false, ranks.startedAny());
    }

    @Test
    void ranksOfAnotherRankCommandAreJudgedByTheirPortsToo() throws Exception {
        LocalRanks ranks = localRanks("my-rankd --flag");

        assertThrows(LauncherException.class, () -> ranks.prepare("localhost", List.of(40000)));
    }
}
