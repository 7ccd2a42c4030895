package org.sperli.launcher.ssh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sperli.crypto.Sha256;
import org.sperli.launcher.LauncherHarness;
import org.sperli.launcher.exit.ExitCodes;
import org.sperli.launcher.exit.LauncherException;
import org.sperli.launcher.job.EphemeralPorts;
import org.sperli.launcher.job.EphemeralRange;
import org.sperli.launcher.job.HostMemory;
import org.sperli.launcher.job.JobJar;
import org.sperli.launcher.job.RankCommand;
import org.sperli.launcher.report.Console;
import org.sperli.testing.Jdks;

/**
 * A host whose PATH has no {@code sperli-rankd} needs only a JDK: the launcher stages the rank daemon's jar into
 * {@code ~/.cache/sperli/lib/<sha256>.jar} on the (embedded) SSH host, the job runs from it with the host's Java, a
 * second run stages nothing, a damaged cached copy is replaced, and a host whose Java is missing or too old is refused
 * before anything starts, in one line naming the host and what it found.
 */
class StagedRankdTest {
    @TempDir
    Path dir;

    private EmbeddedSshServer server;
    private Path sshDir;
    private Path jar;
    private Path rankdJar;

    @BeforeEach
    void startServer() throws Exception {
        Assumptions.assumeFalse(onPath("sperli-rankd"),
                "skipped: this machine has sperli-rankd on its PATH, so the SSH host would not need staging");
        rankdJar = rankdAllJar();
        server = EmbeddedSshServer.start(Files.createDirectory(dir.resolve("remote-home")));
        sshDir = dir.resolve("ssh");
        server.writeLocalhostClient(sshDir);
        jar = LauncherHarness.testJar(dir);
    }

    @AfterEach
    void stopServer() throws Exception {
        LauncherHarness.killDescendants();
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aHostWithoutTheRankCommandGetsTheRankDaemonStagedOnceAndRunsTheJob() throws Exception {
        LauncherHarness.Run first = run(javaOfThisJvm());

        assertEquals(0, first.exitCode(), first.err());
        assertTrue(first.out().contains("[rank 0] sum=1 incarnation=1"), first.out());
        assertTrue(first.err().contains("staged the rank daemon on localhost (1 of 1 jars)"), first.err());
        Path staged = stagedCopy();
        assertEquals(HexFormat.of().formatHex(Sha256.ofFile(rankdJar)) + ".jar", staged.getFileName().toString());
        FileTime written = Files.getLastModifiedTime(staged);
        int sftpSessions = server.sftpSessions();

        LauncherHarness.Run second = run(javaOfThisJvm());

        assertEquals(0, second.exitCode(), second.err());
        assertTrue(second.err().contains("rank daemon already on localhost"), second.err());
        assertFalse(second.err().contains("staged the rank daemon"), second.err());
        assertEquals(written, Files.getLastModifiedTime(staged), "the second run wrote the jar again");
        assertTrue(second.err().contains("job jar already on localhost"), second.err());
        assertEquals(sftpSessions, server.sftpSessions(), "a host that holds every jar needs no SFTP session");
        assertArchiveMadeThenUsed(first, second);
        LauncherHarness.assertNoProcessLeft();
    }

    @Test
    void onJava25TheFirstCompletedJobLeavesAClassDataArchiveThatTheNextJobsRanksMap() throws Exception {
        Path jdk = Jdks.atLeast(StagedArchive.FIRST_FEATURE).orElse(null);
        assumeTrue(jdk != null, "skipped: no JDK 25 or later here to run the staged ranks");
        assumeTrue(Runtime.version().feature() < StagedArchive.FIRST_FEATURE,
                "skipped: this JVM is Java 25, which the first test ran");
        firstJobLeavesAnArchiveThatTheNextMaps(jdk.resolve("bin").resolve("java").toString());
    }

    /** With {@code java} on the host (a dynamic archive from Java 25 on): see {@link #assertArchiveMadeThenUsed}. */
    private void firstJobLeavesAnArchiveThatTheNextMaps(String java) throws Exception {
        LauncherHarness.Run first = run(java);
        LauncherHarness.Run second = run(java);
        assertArchiveMadeThenUsed(first, second);
        LauncherHarness.assertNoProcessLeft();
    }

    /**
     * The first job left one archive of the host and nothing else (a static one from a class list before Java 25, a
     * dynamic one after), the second job's ranks mapped it, and neither job's output shows any of it.
     */
    private void assertArchiveMadeThenUsed(LauncherHarness.Run first, LauncherHarness.Run second) throws IOException {
        assertEquals(0, first.exitCode(), first.err());
        assertTrue(first.err().contains("the first rank to complete a job makes a class-data archive"), first.err());
        Path archive = onlyArchive();
        assertEquals(0, second.exitCode(), second.err());
        assertTrue(second.err().contains("with the class-data archive ~/" + StagedArchive.DIR + "/"
                + archive.getFileName()), second.err());
        for (LauncherHarness.Run run : List.of(first, second)) {
            // The ring job's lines, and nothing of the archive's making or use.
            List<String> lines = run.out().lines().toList();
            assertEquals(3, lines.size(), run.out());
            assertTrue(lines.stream().allMatch(l -> l.matches("\\[rank ([01])] rank=\\1 size=2 incarnation=1 pid=\\d+")
                    || l.equals("[rank 0] sum=1 incarnation=1")), run.out());
        }
    }

    @Test
    void aCachedCopyWhoseHashIsWrongIsReplaced() throws Exception {
        Path lib = Files.createDirectories(server.home().resolve(RankdClasspath.CACHE_DIR));
        Path cached = lib.resolve(HexFormat.of().formatHex(Sha256.ofFile(rankdJar)) + ".jar");
        Files.write(cached, new byte[(int) Files.size(rankdJar)]);

        LauncherHarness.Run run = run(javaOfThisJvm());

        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.err().contains("staged the rank daemon on localhost (1 of 1 jars)"), run.err());
        assertEquals(Files.mismatch(cached, rankdJar), -1L, "the damaged copy was kept");
    }

    @Test
    void aHostWhoseJavaIsOlderThan17IsRefusedBeforeAnythingStarts() throws Exception {
        Path oldJava = dir.resolve("old-java");
        Files.writeString(oldJava, "#!/bin/sh\necho 'openjdk version \"11.0.20\" 2023-07-18' >&2\n");
        assertTrue(oldJava.toFile().setExecutable(true));

        LauncherHarness.Run run = run(oldJava.toString());

        assertEquals(ExitCodes.START_FAILED, run.exitCode(), run.err());
        assertTrue(run.err().contains("host localhost has no sperli-rankd on its PATH, and its Java cannot run ranks: "
                + oldJava + " -version says 'openjdk version \"11.0.20\" 2023-07-18' (Java 17 or newer is needed"),
                run.err());
        assertNothingStaged();
        LauncherHarness.assertNoProcessLeft();
    }

    @Test
    void aHostGivenMoreRanksThanItsMemoryCanHoldIsRefusedBeforeAnythingIsStagedOrStarted() throws Exception {
        // The SSH host is this machine, so its /proc/meminfo decides, as the probe reads it there.
        Assumptions.assumeTrue(HostMemory.localRefusal(4096, HostMemory.MEMINFO).isPresent(),
                "skipped: this machine has more than 256 GiB of memory and swap, or no /proc/meminfo");

        LauncherHarness.Run run = LauncherHarness.run(
                LauncherHarness.environment(Map.of(RankdClasspath.VARIABLE, rankdJar.toString())),
                "run", "--ssh", "--ssh-dir", sshDir.toString(), "--remote-java", javaOfThisJvm(), "-n", "4096",
                "--hosts", "localhost/4096", jar.toString(), "ring");

        assertEquals(ExitCodes.START_FAILED, run.exitCode(), run.err());
        assertTrue(run.err().contains("host localhost cannot hold its 4096 ranks: they need at least 256.0 GiB of"
                + " memory (64 MiB a rank JVM), and it has "), run.err());
        assertFalse(run.err().contains("\tat "), "no stack trace: " + run.err());
        assertNothingStaged();
        LauncherHarness.assertNoProcessLeft();
    }

    @Test
    void aReadyHostIsJudgedAgainForMoreRanksByWhatItsFirstProbeFoundWithoutAnotherLogin() throws Exception {
        Assumptions.assumeTrue(HostMemory.localRefusal(4096, HostMemory.MEMINFO).isPresent(),
                "skipped: this machine has more than 256 GiB of memory and swap, or no /proc/meminfo");
        Map<String, String> env = Map.of(RankdClasspath.VARIABLE, rankdJar.toString());
        StringWriter said = new StringWriter();
        PrintWriter out = new PrintWriter(said, true);
        Console console = new Console(out, out, false, false, true);

        SshSettings settings = SshSettings.of(sshDir, false);
        try (SshRanks ranks = new SshRanks(SshTransport.start(settings, console::detail), settings, List.of(),
                RankCommand.of(null, env), JobJar.open(jar), List.of("ring"), console, javaOfThisJvm(), env,
                System::nanoTime)) {
            ranks.prepare("localhost", List.of(23000));
            // Ranks moved here from a lost host: the same session, judged again by the first probe's figure.
            ranks.prepare("localhost", List.of(23000, 23001));
            LauncherException refused = assertThrows(LauncherException.class,
                    () -> ranks.prepare("localhost", IntStream.range(23000, 23000 + 4096).boxed().toList()));

            assertEquals(ExitCodes.START_FAILED, refused.exitCode());
            assertTrue(refused.getMessage().startsWith("host localhost cannot hold its 4096 ranks: they need at"
                    + " least 256.0 GiB of memory (64 MiB a rank JVM), and it has "), refused.getMessage());
        }
        assertEquals(1, said.toString().split("connected to localhost as ", -1).length - 1,
                "one login and one probe: " + said);
        LauncherHarness.assertNoProcessLeft();
    }

    @Test
    void aHostWhoseEphemeralRangeHoldsRankPortsIsRefusedAfterItsProbeBeforeAnythingIsStaged() throws Exception {
        // The SSH host is this machine, so its ip_local_port_range decides, as the probe reads it there.
        EphemeralRange range = LauncherHarness.ephemeralRange();
        int port = LauncherHarness.twoEphemeralPorts(range);

        LauncherHarness.Run run = LauncherHarness.run(
                LauncherHarness.environment(Map.of(RankdClasspath.VARIABLE, rankdJar.toString())),
                "run", "--ssh", "--ssh-dir", sshDir.toString(), "--remote-java", javaOfThisJvm(),
                "--hosts", "localhost:" + port + ",localhost:" + (port + 1), jar.toString(), "ring");

        assertEquals(ExitCodes.START_FAILED, run.exitCode(), run.err());
        // Found while the job is set up, it ends the job's summary line as the other refusals of a host do.
        String why = EphemeralPorts.refusal("localhost", List.of(port, port + 1), Optional.of(range)).orElseThrow();
        assertTrue(run.errLines().get(run.errLines().size() - 1).contains(": " + why + "; ranks 2,"), run.err());
        assertFalse(run.err().contains("\tat "), "no stack trace: " + run.err());
        assertNothingStaged();
        LauncherHarness.assertNoProcessLeft();
    }

    @Test
    void aReadyHostIsJudgedAgainForThePortsOfMovedRanksByWhatItsFirstProbeFound() throws Exception {
        EphemeralRange range = LauncherHarness.ephemeralRange();
        int port = LauncherHarness.twoEphemeralPorts(range);
        Map<String, String> env = Map.of(RankdClasspath.VARIABLE, rankdJar.toString());
        StringWriter said = new StringWriter();
        PrintWriter out = new PrintWriter(said, true);
        Console console = new Console(out, out, false, false, true);

        SshSettings settings = SshSettings.of(sshDir, false);
        try (SshRanks ranks = new SshRanks(SshTransport.start(settings, console::detail), settings, List.of(),
                RankCommand.of(null, env), JobJar.open(jar), List.of("ring"), console, javaOfThisJvm(), env,
                System::nanoTime)) {
            ranks.prepare("localhost", List.of(23000));
            LauncherException refused = assertThrows(LauncherException.class,
                    () -> ranks.prepare("localhost", List.of(23000, port)));

            assertEquals(ExitCodes.START_FAILED, refused.exitCode());
            assertEquals(EphemeralPorts.refusal("localhost", List.of(23000, port), Optional.of(range)).orElseThrow(),
                    refused.getMessage());
            assertTrue(refused.getMessage().startsWith("port " + port + " of the ranks on host localhost lies in its"
                    + " ephemeral port range "), refused.getMessage());
        }
        assertEquals(1, said.toString().split("connected to localhost as ", -1).length - 1,
                "one login and one probe: " + said);
        LauncherHarness.assertNoProcessLeft();
    }

    @Test
    void aHostWithoutJavaIsRefusedNamingWhatItFound() throws Exception {
        String missing = dir.resolve("no-such-java").toString();

        LauncherHarness.Run run = run(missing);

        assertEquals(ExitCodes.START_FAILED, run.exitCode(), run.err());
        assertTrue(run.err().contains("host localhost has no sperli-rankd on its PATH, and its Java cannot run ranks: "
                + missing + " -version says '"), run.err());
        assertTrue(run.err().contains("not found"), run.err());
        assertFalse(run.err().contains("\tat "), "no stack trace: " + run.err());
        assertNothingStaged();
    }

    @Test
    void aHostWhoseSshServerHasNoSftpIsRefusedInOneLineThatSaysSo() throws Exception {
        server.close();
        Path home = Files.createDirectory(dir.resolve("home-without-sftp"));
        server = EmbeddedSshServer.startWithoutSftp(home);
        server.writeLocalhostClient(sshDir);

        LauncherHarness.Run run = run(javaOfThisJvm());

        assertEquals(ExitCodes.START_FAILED, run.exitCode(), run.err());
        // The rank daemon is staged first: the probe that finds what the host lacks comes before any copy.
        assertTrue(run.err().contains("cannot prepare the rank daemon on localhost: the host's SSH server offers no"
                + " SFTP, which staging needs (OpenSSH: a 'Subsystem sftp' line in sshd_config; it said: "),
                run.err());
        assertFalse(run.err().contains("\tat "), "no stack trace: " + run.err());
        assertNothingStaged();

        // With a sperli-rankd on the host (for its agent), the job jar is the first thing to stage.
        server.installRankd();
        List<Integer> ports = LauncherHarness.freePorts(2);
        LauncherHarness.Run given = LauncherHarness.run(LauncherHarness.environment(Map.of()), "run", "--ssh",
                "--ssh-dir", sshDir.toString(), "--rankd", "sperli-rankd", "--hosts",
                LauncherHarness.hosts(ports, "localhost"), jar.toString(), "ring");

        assertEquals(ExitCodes.START_FAILED, given.exitCode(), given.err());
        assertTrue(given.err().contains("cannot stage the job jar on localhost in ~/.cache/sperli/jars: the host's SSH"
                + " server offers no SFTP, which staging needs"), given.err());
        assertFalse(given.err().contains("\tat "), "no stack trace: " + given.err());
        LauncherHarness.assertNoProcessLeft();
    }

    private LauncherHarness.Run run(String remoteJava) throws IOException {
        List<Integer> ports = LauncherHarness.freePorts(2);
        return LauncherHarness.run(LauncherHarness.environment(Map.of(RankdClasspath.VARIABLE, rankdJar.toString())),
                "run", "--ssh", "--ssh-dir", sshDir.toString(), "--remote-java", remoteJava, "-v",
                "--hosts", LauncherHarness.hosts(ports, "localhost"), jar.toString(), "ring");
    }

    private Path stagedCopy() throws IOException {
        try (DirectoryStream<Path> lib = Files.newDirectoryStream(server.home().resolve(RankdClasspath.CACHE_DIR))) {
            List<Path> files = new java.util.ArrayList<>();
            lib.forEach(files::add);
            assertEquals(1, files.size(), "files in the host's cache: " + files);
            return files.get(0);
        }
    }

    /** The one class-data archive the host's ranks made, with no partial file or lock beside it. */
    private Path onlyArchive() throws IOException {
        try (DirectoryStream<Path> cds = Files.newDirectoryStream(server.home().resolve(StagedArchive.DIR))) {
            List<Path> files = new java.util.ArrayList<>();
            cds.forEach(files::add);
            assertEquals(1, files.size(), "files in the host's archive directory: " + files);
            assertTrue(files.get(0).getFileName().toString().matches("rankd-[0-9a-f]{24}\\.jsa"), files.toString());
            return files.get(0);
        }
    }

    private void assertNothingStaged() {
        assertFalse(Files.exists(server.home().resolve(RankdClasspath.CACHE_DIR)), "staged for a refused host");
    }

    private static String javaOfThisJvm() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** The rank daemon's self-contained jar, which the reactor builds (package) before this module's tests run. */
    static Path rankdAllJar() throws IOException {
        Path target = Path.of("..", "rankd", "target").toAbsolutePath().normalize();
        try (DirectoryStream<Path> jars = Files.newDirectoryStream(target, "sperli-rankd-*-all.jar")) {
            for (Path p : jars) {
                return p;
            }
        } catch (IOException e) {
            // reported below
        }
        throw new IOException("no sperli-rankd-*-all.jar in " + target + ": build the rankd module first");
    }

    private static boolean onPath(String command) throws Exception {
        Process p = new ProcessBuilder("/bin/sh", "-c", "command -v " + command).start();
        return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
    }
}
