package org.sperli.launcher.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sperli.launcher.LauncherHarness.Run;
import org.sperli.launcher.LauncherHarness;
import org.sperli.launcher.exit.ExitCodes;
import org.sperli.launcher.job.EphemeralPorts;
import org.sperli.launcher.job.EphemeralRange;
import org.sperli.launcher.job.HostMemory;

/** Bad command lines and bad input end with exit status 2, one line on stderr, no stack trace, nothing started. */
class RunCommandUsageTest {
    @TempDir
    Path dir;

    @AfterEach
    void nothingStarted() {
        LauncherHarness.assertNoProcessLeft();
    }

    private Run run(String... args) {
        return LauncherHarness.run(LauncherHarness.environment(Map.of()), args);
    }

    private Run runWith(Map<String, String> env, String... args) {
        return LauncherHarness.run(LauncherHarness.environment(env), args);
    }

    private static void assertUsage(Run run, String expected) {
        assertEquals(ExitCodes.USAGE, run.exitCode(), run.err());
        assertEquals(1, run.errLines().size(), "one line expected:\n" + run.err());
        assertTrue(run.err().startsWith("sperli: "), run.err());
        assertTrue(run.err().contains(expected), "expected '" + expected + "' in: " + run.err());
        assertFalse(run.err().contains("\tat "), run.err());
    }

    private Path jar() throws IOException {
        return LauncherHarness.testJar(dir);
    }

    /** Issue 17 point 3: a deny file that is a FIFO, or a directory, is one line and status 2, never a hang. */
    @Test
    void aDenyFileThatIsAFifoOrADirectoryIsOneLineAndStatus2() throws Exception {
        Path fifo = dir.resolve("deny-fifo");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
        assumeTrue(mkfifo.waitFor(5, TimeUnit.SECONDS) && mkfifo.exitValue() == 0, "mkfifo is not available here");
        String jar = jar().toString();
        assertUsage(assertTimeoutPreemptively(Duration.ofSeconds(60), () -> run("run", "--hosts", "localhost",
                "--deny-hosts", fifo.toString(), jar)), "deny file " + fifo + " is not a regular file");
        assertUsage(run("run", "--hosts", "localhost", "--deny-hosts", dir.toString(), jar),
                "deny file " + dir + " is a directory");
    }

    @Test
    void aJobJarThatIsAFifoIsOneLineAndStatus2() throws Exception {
        Path fifo = dir.resolve("jar-fifo");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
        assumeTrue(mkfifo.waitFor(5, TimeUnit.SECONDS) && mkfifo.exitValue() == 0, "mkfifo is not available here");
        assertUsage(assertTimeoutPreemptively(Duration.ofSeconds(60), () -> run("run", "--hosts", "localhost",
                fifo.toString())), "job jar " + fifo + " is not a file");
    }

    @Test
    void aCheckpointWaitOutsideItsRangeIsOneLineAndStatus2() throws IOException {
        String jar = jar().toString();
        assertUsage(run("run", "--hosts", "localhost", "--checkpoint-dir", dir.resolve("ck").toString(),
                "--checkpoint-wait", "0", jar), "--checkpoint-wait 0 is not in 1..604800 seconds");
    }

    @Test
    void helpListsEveryExitCode() {
        Run run = run("run", "--help");
        assertEquals(0, run.exitCode());
        assertTrue(run.out().contains("Exit codes:"), run.out());
        for (String code : ExitCodes.descriptions().keySet()) {
            assertTrue(run.out().contains(code.strip() + "   "), "code " + code + " in:\n" + run.out());
        }
        assertTrue(run.out().contains("--hosts-from"), run.out());
        for (String habit : List.of("-n, -np=N", "-x=VAR[=VALUE]", "--output-dir=DIR", "--timestamp-output",
                "--report=FILE")) {
            assertTrue(run.out().contains(habit), habit + " in:\n" + run.out());
        }
    }

    @Test
    void versionNamesTheProtocol() {
        Run run = run("--version");
        assertEquals(0, run.exitCode());
        assertTrue(run.out().startsWith("sperli "), run.out());
        assertTrue(run.out().contains("protocol v1"), run.out());
    }

    @Test
    void noSubcommandShowsUsageWithStatus2() {
        Run run = run();
        assertEquals(ExitCodes.USAGE, run.exitCode());
        assertTrue(run.err().contains("Usage: sperli"), run.err());
    }

    @Test
    void refusesRunWithoutHosts() throws IOException {
        assertUsage(run("run", jar().toString()), "--hosts");
    }

    @Test
    void moreRanksThanSlotsIsOneLineAndStatus2() throws IOException {
        Path hostfile = Files.writeString(dir.resolve("hosts"), "node1 slots=2\nnode2 slots=2\n");
        assertUsage(run("run", "-n", "5", "--hostfile", hostfile.toString(), jar().toString()),
                "-n 5: hostfile " + hostfile + " gives 4 slots");
        assertUsage(run("run", "-n", "3", "--hosts", "localhost/2", jar().toString()), "-n 3: --hosts gives 2 slots");
    }

    /** 4096 local ranks need 256 GiB at 64 MiB a rank JVM: refused before any key is made or rank started. */
    @Test
    void moreLocalRanksThanThisHostsMemoryCanHoldIsOneLineAndStatus2() throws IOException {
        assumeTrue(HostMemory.localRefusal(4096, HostMemory.MEMINFO).isPresent(),
                "this host has more than 256 GiB of memory and swap, or no /proc/meminfo");
        assertUsage(run("run", "-n", "4096", jar().toString()), "4096 local ranks need at least 256.0 GiB");
    }

    /** Any dial on the host may take a port of its ephemeral range before a rank listens there. */
    @Test
    void localRanksOnPortsOfThisHostsEphemeralRangeAreOneLineAndStatus2BeforeAnythingStarts() throws IOException {
        Optional<EphemeralRange> range = Optional.of(LauncherHarness.ephemeralRange());
        int port = LauncherHarness.twoEphemeralPorts(range.get());
        String expected = "sperli: " + EphemeralPorts.localRefusal(List.of(port, port + 1), range).orElseThrow();
        String jar = jar().toString();

        Run explicit = run("run", "--hosts", "localhost:" + port + ",127.0.0.1:" + (port + 1), jar);
        assertUsage(explicit, "ports " + port + "-" + (port + 1) + " of the local ranks lie in this host's ephemeral"
                + " port range ");
        assertEquals(List.of(expected), explicit.errLines());
        Run fromBase = run("run", "--port-base", Integer.toString(port), "-n", "2", jar);
        assertUsage(fromBase, "--port-base ");
        assertEquals(List.of(expected), fromBase.errLines());
    }

    @Test
    void aRankCountOutsideItsRangeIsOneLineAndStatus2() throws IOException {
        assertUsage(run("run", "-n", "0", jar().toString()), "-n 0 is not in 1..4096");
        assertUsage(run("run", "-n", "4097", "--hosts", "a/4096", jar().toString()), "-n 4097 is not in 1..4096");
    }

    @Test
    void xWithABadNameOrAnUnsetVariableIsOneLineAndStatus2() throws IOException {
        assertUsage(run("run", "-x", "9LIVES=1", "--hosts", "localhost", jar().toString()),
                "-x 9LIVES=1: '9LIVES' is not a variable name");
        assertUsage(run("run", "-x", "SPERLI_SURELY_UNSET", "--hosts", "localhost", jar().toString()),
                "-x SPERLI_SURELY_UNSET: SPERLI_SURELY_UNSET is not set in the launcher's environment");
    }

    @Test
    void aReportFileThatCannotBeWrittenIsOneLineAndStatus2BeforeAnythingStarts() throws IOException {
        Path report = dir.resolve("missing").resolve("report.json");
        assertUsage(run("run", "--report", report.toString(), "--hosts", "localhost", jar().toString()),
                "--report " + report + ": directory " + report.getParent() + " does not exist");
        assertUsage(run("run", "--report", dir.toString(), "--hosts", "localhost", jar().toString()),
                "--report " + dir + " is a directory");
    }

    @Test
    void anOutputDirThatIsAFileIsOneLineAndStatus2() throws IOException {
        Path file = Files.writeString(dir.resolve("plain"), "x");
        assertUsage(run("run", "--output-dir", file.toString(), "--hosts", "localhost", jar().toString()),
                "--output-dir " + file + " is not a directory");
    }

    @Test
    void refusesTwoHostSources() throws IOException {
        assertUsage(run("run", "--hosts", "localhost", "--hosts-from", "slurm", jar().toString()),
                "mutually exclusive");
    }

    @Test
    void refusesAnEmptyHostEntry() throws IOException {
        assertUsage(run("run", "--hosts", "localhost,,localhost", jar().toString()), "--hosts entry 2 is empty");
    }

    @Test
    void refusesPortsOutOfRange() throws IOException {
        assertUsage(run("run", "--hosts", "localhost:0", jar().toString()), "port 0 is not in 1..65535");
        assertUsage(run("run", "--hosts", "localhost:65536", jar().toString()), "port 65536 is not in 1..65535");
        assertUsage(run("run", "--hosts", "localhost:http", jar().toString()), "port 'http' is not a number");
    }

    @Test
    void refusesIpv6() throws IOException {
        assertUsage(run("run", "--hosts", "::1", jar().toString()), "looks like IPv6");
        assertUsage(run("run", "--hosts", "[::1]:23000", jar().toString()), "looks like IPv6");
    }

    @Test
    void refusesHostsOutsideTheV1Syntax() throws IOException {
        assertUsage(run("run", "--hosts", "01.2.3.4", jar().toString()), "not a dotted IPv4 address");
        assertUsage(run("run", "--hosts", "bad_host", jar().toString()), "--hosts entry 1: host=\"bad_host\"");
    }

    @Test
    void refusesTheSameExplicitPortTwice() throws IOException {
        assertUsage(run("run", "--hosts", "localhost:47100,127.0.0.1:47100", jar().toString()),
                "127.0.0.1:47100 is already the port of --hosts entry 1");
    }

    @Test
    void refusesAMissingHostfile() throws IOException {
        assertUsage(run("run", "--hostfile", dir.resolve("none").toString(), jar().toString()), "does not exist");
    }

    @Test
    void refusesAnUnknownHostfileField() throws IOException {
        Path hostfile = Files.writeString(dir.resolve("hosts"), "# nodes\nnode1 slots=2\nnode2 cpus=4\n");
        assertUsage(run("run", "--hostfile", hostfile.toString(), jar().toString()),
                "line 3: unknown field 'cpus=4'");
    }

    @Test
    void refusesSlurmWithoutANodeList() throws IOException {
        assertUsage(run("run", "--hosts-from", "slurm", jar().toString()), "SLURM_JOB_NODELIST is not set");
    }

    @Test
    void aCheckpointDirectoryThatIsAFileIsRefusedBeforeAnythingStarts() throws IOException {
        Path file = Files.writeString(dir.resolve("ckpt-file"), "x");
        assertUsage(run("run", "--hosts", "localhost,localhost", "--checkpoint-dir", file.resolve("job").toString(),
                jar().toString()), "--checkpoint-dir " + file.resolve("job") + ": " + file
                + " is a file, so the directory cannot be made under it");
    }

    @Test
    void aSlurmNodeListSetButEmptyIsNamedAsSuch() throws IOException {
        assertUsage(runWith(Map.of("SLURM_JOB_NODELIST", " "), "run", "--hosts-from", "slurm", jar().toString()),
                "SLURM_JOB_NODELIST is set but empty");
    }

    @Test
    void aBadTaskCountNamesSlurmTasksPerNodeNotTheHostList() throws IOException {
        assertUsage(runWith(Map.of("SLURM_JOB_NODELIST", "node1", "SLURM_TASKS_PER_NODE", "0"), "run",
                "--hosts-from", "slurm", jar().toString()), "SLURM_TASKS_PER_NODE '0': a count of 0");
    }

    @Test
    void refusesABadSlurmNodeList() throws IOException {
        assertUsage(runWith(Map.of("SLURM_JOB_NODELIST", "node[04-01]"), "run", "--hosts-from", "slurm",
                jar().toString()), "range 04-01 runs backwards");
    }

    @Test
    void refusesAnUnknownHostSource() throws IOException {
        assertUsage(run("run", "--hosts-from", "pbs", jar().toString()), "--hosts-from");
    }

    @Test
    void refusesASilenceLimitOutOfRange() throws IOException {
        assertUsage(run("run", "--silence-ms", "1999", "--hosts", "localhost", jar().toString()),
                "--silence-ms 1999 is not in 2000..3600000");
    }

    @Test
    void refusesAPortBaseOutOfRange() throws IOException {
        assertUsage(run("run", "--port-base", "0", "--hosts", "localhost", jar().toString()),
                "--port-base 0 is not in 1..65535");
    }

    @Test
    void refusesANegativeRestartMax() throws IOException {
        assertUsage(run("run", "--restart-max", "-1", "--hosts", "localhost", jar().toString()),
                "--restart-max -1 is negative");
    }

    @Test
    void refusesAnUnknownTlsEngine() throws IOException {
        assertUsage(run("run", "--tls-engine", "openssl", "--hosts", "localhost", jar().toString()),
                "--tls-engine: TLS engine 'openssl' is not one of auto, jdk, accp");
        assertUsage(runWith(Map.of("SPERLI_TLS_ENGINE", "fast"), "run", "--hosts", "localhost", jar().toString()),
                "SPERLI_TLS_ENGINE: TLS engine 'fast' is not one of auto, jdk, accp");
    }

    @Test
    void refusesAMissingJar() {
        assertUsage(run("run", "--hosts", "localhost", dir.resolve("none.jar").toString()), "does not exist");
    }

    @Test
    void refusesAJarThatNamesNoJob() throws IOException {
        Path notAJar = Files.writeString(dir.resolve("plain.jar"), "not a zip");
        assertUsage(run("run", "--hosts", "localhost", notAJar.toString()), "cannot be read as a jar");
    }

    @Test
    void refusesARankCommandWithAnOpenQuote() throws IOException {
        assertUsage(run("run", "--rankd", "java 'oops", "--hosts", "localhost", jar().toString()),
                "unclosed ' quote");
    }

    @Test
    void verboseOrSperliDebugAddsTheStackTrace() {
        String missing = dir.resolve("none.jar").toString();
        Run verbose = run("run", "-v", "--hosts", "localhost", missing);
        assertEquals(ExitCodes.USAGE, verbose.exitCode());
        assertTrue(verbose.err().contains("\tat org.sperli.launcher."), verbose.err());
        Run debug = runWith(Map.of("SPERLI_DEBUG", "1"), "run", "--hosts", "localhost", missing);
        assertTrue(debug.err().contains("\tat org.sperli.launcher."), debug.err());
    }
}
