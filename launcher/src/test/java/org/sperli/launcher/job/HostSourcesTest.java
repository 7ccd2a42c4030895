package org.sperli.launcher.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sperli.launcher.exit.ExitCodes;
import org.sperli.launcher.exit.LauncherException;

class HostSourcesTest {
    @TempDir
    Path dir;

    @Test
    void hostsListTakesHostAndHostPortAndRepeats() {
        List<HostSpec> specs = HostSources.fromList("node1, node2:23010,node1");
        assertEquals(List.of(new HostSpec("node1", 0, "--hosts entry 1"), new HostSpec("node2", 23010,
                "--hosts entry 2"), new HostSpec("node1", 0, "--hosts entry 3")), specs);
    }

    @Test
    void hostsEntryWithSlashNIsNSlotsOnConsecutivePorts() {
        List<HostSpec> specs = HostSources.fromList("node1/2,node2:23010/3");
        assertEquals(List.of("node1", "node1", "node2", "node2", "node2"),
                specs.stream().map(HostSpec::host).toList());
        assertEquals(List.of(0, 0, 23010, 23011, 23012), specs.stream().map(HostSpec::port).toList());
        assertEquals("--hosts entry 2", specs.get(4).origin());
    }

    @Test
    void hostsEntryRefusesASlotCountOutside1To4096() {
        assertEquals("--hosts entry 2 'b/0': slots=0 is not in 1..4096", assertThrows(LauncherException.class,
                () -> HostSources.fromList("a,b/0")).getMessage());
        assertEquals("--hosts entry 1 'a/x': slots='x' is not a number 1..4096", assertThrows(
                LauncherException.class, () -> HostSources.fromList("a/x")).getMessage());
        assertEquals("--hosts entry 1 'a/': slots='' is not a number 1..4096", assertThrows(
                LauncherException.class, () -> HostSources.fromList("a/")).getMessage());
    }

    @Test
    void ipv6IsLeftWholeForTheSyntaxCheck() {
        assertEquals("fe80::1", HostSources.fromList("fe80::1").get(0).host());
        assertEquals("[::1]:23000", HostSources.fromList("[::1]:23000").get(0).host());
    }

    @Test
    void hostfileInOpenMpiForm() throws IOException {
        Path file = Files.writeString(dir.resolve("hosts"), String.join("\n",
                "# the lab",
                "node1 slots=2   # two ranks",
                "",
                "   node2",
                "node3:47100 slots=2 max_slots=8",
                ""));
        List<HostSpec> specs = HostSources.fromHostfile(file);
        assertEquals(List.of("node1", "node1", "node2", "node3", "node3"),
                specs.stream().map(HostSpec::host).toList());
        assertEquals(List.of(0, 0, 0, 47100, 47101), specs.stream().map(HostSpec::port).toList());
        assertEquals("hostfile " + file + " line 2", specs.get(0).origin());
    }

    @Test
    void hostfileRefusesBadSlotsAndEmptyFiles() throws IOException {
        Path zero = Files.writeString(dir.resolve("zero"), "node1 slots=0\n");
        assertTrue(assertThrows(LauncherException.class, () -> HostSources.fromHostfile(zero)).getMessage()
                .contains("line 1: slots=0 is not in 1..4096"));
        Path empty = Files.writeString(dir.resolve("empty"), "# nothing\n\n");
        assertTrue(assertThrows(LauncherException.class, () -> HostSources.fromHostfile(empty)).getMessage()
                .contains("lists no host"));
        Path many = Files.writeString(dir.resolve("many"), "a slots=4000\nb slots=97\n");
        assertTrue(assertThrows(LauncherException.class, () -> HostSources.fromHostfile(many)).getMessage()
                .contains("more than 4096 ranks"));
    }

    @Test
    void aHostfileThatIsNotARegularFileIsRefusedWithoutOpeningIt() throws Exception {
        Path fifo = dir.resolve("fifo");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
        assumeTrue(mkfifo.waitFor(5, TimeUnit.SECONDS) && mkfifo.exitValue() == 0, "mkfifo is not available here");
        // Opening a FIFO with no writer blocks: a regression would hang, so the bound turns it into a failure.
        LauncherException e = assertTimeoutPreemptively(Duration.ofSeconds(5),
                () -> assertThrows(LauncherException.class, () -> HostSources.fromHostfile(fifo)));
        assertEquals(ExitCodes.USAGE, e.exitCode());
        assertEquals("hostfile " + fifo + " is not a regular file (a FIFO, socket or device), expected a regular file",
                e.getMessage());
        LauncherException d = assertThrows(LauncherException.class, () -> HostSources.fromHostfile(dir));
        assertEquals("hostfile " + dir + " is a directory, expected a regular file", d.getMessage());
    }

    @Test
    void aBinaryHostfileIsNamedAsNotText() throws IOException {
        byte[] notUtf8 = {'n', 'o', 'd', 'e', (byte) 0xff, (byte) 0xfe, '\n'};
        Path binary = Files.write(dir.resolve("binary"), notUtf8);
        LauncherException e = assertThrows(LauncherException.class, () -> HostSources.fromHostfile(binary));
        assertEquals(ExitCodes.USAGE, e.exitCode());
        assertEquals("hostfile " + binary + " is not UTF-8 text (a binary file?)", e.getMessage());
    }

    @Test
    void aHostfileOverTheLimitIsRefusedBeforeItsLinesAreRead() throws IOException {
        Path big = dir.resolve("big");
        try (var out = Files.newOutputStream(big)) {
            byte[] line = "node1\n".getBytes(StandardCharsets.US_ASCII);
            for (long n = 0; n <= HostSources.MAX_HOSTFILE_BYTES / line.length; n++) {
                out.write(line);
            }
        }
        LauncherException e = assertThrows(LauncherException.class, () -> HostSources.fromHostfile(big));
        assertEquals("hostfile " + big + " is larger than " + HostSources.MAX_HOSTFILE_BYTES + " bytes",
                e.getMessage());
    }

    @Test
    void slurmGivesOneRankPerNode() {
        List<HostSpec> specs = HostSources.fromSlurm(Map.of("SLURM_JOB_NODELIST", "node[01-04,07],gpu[1-2]"));
        assertEquals(List.of("node01", "node02", "node03", "node04", "node07", "gpu1", "gpu2"),
                specs.stream().map(HostSpec::host).toList());
        assertEquals("SLURM_JOB_NODELIST node 5", specs.get(4).origin());
    }

    @Test
    void slurmTasksPerNodeGiveSeveralRanksPerNode() {
        List<HostSpec> specs = HostSources.fromSlurm(Map.of("SLURM_JOB_NODELIST", "n[1-3]",
                "SLURM_TASKS_PER_NODE", "2(x2),1"));
        assertEquals(List.of("n1", "n1", "n2", "n2", "n3"), specs.stream().map(HostSpec::host).toList());
        assertThrows(LauncherException.class, () -> HostSources.fromSlurm(Map.of("SLURM_JOB_NODELIST", "n[1-3]",
                "SLURM_TASKS_PER_NODE", "2")));
    }
}
