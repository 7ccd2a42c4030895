package org.sperli.launcher.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.sperli.launcher.CommandLines;
import org.sperli.launcher.LauncherHarness;
import org.sperli.launcher.Main;
import org.sperli.launcher.testjob.CheckpointTestJob;
import org.sperli.launcher.testjob.CrashAtCheckpointStep;

/**
 * {@code sperli run} inside an allocation of a real Slurm on this machine ({@link SlurmCluster}, one for the class):
 * salloc and sbatch as an operator uses them, the agents started by one srun step and calling home, and scancel
 * ending everything. Every launcher is a process of its own, as under salloc it is.
 */
class SlurmLaunchTest {
    private static final Duration JOB_BOUND = Duration.ofSeconds(120);
    private static SlurmCluster cluster;
    private static Path dir;
    private static Path jar;
    private static Set<String> agentDirectoriesBefore;

    @BeforeAll
    static void startCluster() throws IOException {
        // Once per build, on its first pass (Java 17): these tests check how the launcher drives Slurm's and MUNGE's
        // programs and processes, about 100 s of the CI budget; what depends on the JDK in the Slurm launcher, the TLS
        // 1.3 call-home and its checks, CallHomeRefusalTest runs on both passes.
        assumeTrue(Runtime.version().feature() < 25, "skipped: the test Slurm runs on the first pass (Java 17) only");
        cluster = SlurmCluster.startOrSkip();
        dir = Files.createTempDirectory("sperli-slurm-jobs");
        dir.toFile().setReadable(true, false);
        dir.toFile().setExecutable(true, false);
        jar = LauncherHarness.testJar(dir);
        Files.createDirectories(dir.resolve("tmp"));
        agentDirectoriesBefore = agentDirectories();
    }

    /**
     * Every test starts on four idle nodes and an empty queue: a test that failed before its salloc ended can leave an
     * allocation behind (a SIGKILLed salloc's job stays until Slurm notices), which would put the next test's job on
     * other nodes and fail it for a reason not its own.
     */
    @BeforeEach
    void idleCluster() throws IOException {
        cluster.cancelEveryJob();
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
        if (dir != null) {
            SlurmCluster.delete(dir);
        }
    }

    /** The launcher's command line: this JVM's Java and class path, then {@code args}. */
    private static List<String> sperli(String... args) {
        List<String> argv = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Djava.io.tmpdir=" + dir.resolve("tmp"),
                "-cp", System.getProperty("java.class.path"),
                Main.class.getName()));
        argv.addAll(List.of(args));
        return argv;
    }

    private static Map<String, String> rankOptions() {
        return Map.of("SPERLI_RANKD_JAVA_OPTS", LauncherHarness.RANK_JAVA_OPTS);
    }

    /** The Slurm nodes that the launcher said (with -v) it started ranks on. */
    private static Set<String> nodesOfRanks(String err) {
        Set<String> nodes = new TreeSet<>();
        Matcher m = Pattern.compile("rank \\d+ on Slurm node (n\\d)").matcher(err);
        while (m.find()) {
            nodes.add(m.group(1));
        }
        return nodes;
    }

    @Test
    void sallocOfThreeNodesRunsSixRanksThroughOneSrunStep() throws IOException {
        int base = LauncherHarness.freePortRange(6);
        List<String> argv = new ArrayList<>(List.of(SlurmCluster.path("salloc"), "-N", "3"));
        argv.addAll(sperli("run", "-v", "-n", "6", "--port-base", Integer.toString(base), jar.toString(), "ring"));
        SlurmCluster.Result r = cluster.run(JOB_BOUND, rankOptions(), argv);
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.err().contains("launcher: slurm"), r.err());
        assertTrue(r.err().contains("one srun step starts the host agents: srun --nodes=3 --ntasks=3"), r.err());
        for (int rank = 0; rank < 6; rank++) {
            assertTrue(r.out().contains("rank=" + rank + " size=6 incarnation=1"), r.out());
        }
        assertEquals(Set.of("n1", "n2", "n3"), nodesOfRanks(r.err()), r.err());
        assertNothingLeft();
    }

    @Test
    void hostsListedWithinTheAllocationRunThereThroughSlurm() throws IOException {
        int base = LauncherHarness.freePortRange(3);
        List<String> argv = new ArrayList<>(List.of(SlurmCluster.path("salloc"), "-N", "2"));
        argv.addAll(sperli("run", "-v", "--hosts", "n2/2,n1", "--port-base", Integer.toString(base), jar.toString(),
                "ring"));
        SlurmCluster.Result r = cluster.run(JOB_BOUND, rankOptions(), argv);
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.err().contains("launcher: slurm"), r.err());
        assertTrue(r.err().contains("rank 0 on Slurm node n2") && r.err().contains("rank 2 on Slurm node n1"),
                r.err());
        assertNothingLeft();
    }

    @Test
    void anSbatchScriptRunsTheJobAsWithMpirun() throws IOException {
        int base = LauncherHarness.freePortRange(4);
        Path script = dir.resolve("job.sh");
        Path out = dir.resolve("job.out");
        Files.writeString(script, "#!/bin/sh\nexec " + String.join(" ", sperli("run", "--port-base",
                Integer.toString(base), jar.toString(), "ring")) + "\n");
        script.toFile().setExecutable(true, false);
        SlurmCluster.Result submitted = cluster.run(Duration.ofSeconds(20), rankOptions(), List.of(
                SlurmCluster.path("sbatch"), "--parsable", "-N", "2", "--ntasks-per-node=2", "-o", out.toString(),
                script.toString()));
        assertEquals(0, submitted.exit(), submitted.err());
        String job = submitted.out().strip().split(";")[0];
        String[] state = {""};
        waitUntil(JOB_BOUND, () -> {
            state[0] = SlurmTools.field(cluster.run(Duration.ofSeconds(10), "scontrol", "show", "job", "-o", job)
                    .out(), "JobState");
            return state[0] != null && !Set.of("PENDING", "RUNNING", "CONFIGURING", "COMPLETING").contains(state[0]);
        }, "sbatch job " + job + " to end");
        String output = Files.readString(out);
        assertEquals("COMPLETED", state[0], output);
        for (int rank = 0; rank < 4; rank++) {
            assertTrue(output.contains("rank=" + rank + " size=4 incarnation=1"), output);
        }
        assertNothingLeft();
    }

    @Test
    void scancelStopsEveryRankOnEveryNodeAndTheLauncherExits143() throws Exception {
        int base = LauncherHarness.freePortRange(4);
        Path out = dir.resolve("wait.out");
        Path err = dir.resolve("wait.err");
        List<String> argv = new ArrayList<>(List.of(SlurmCluster.path("salloc"), "-N", "2", "-J", "sperli-wait"));
        argv.addAll(sperli("run", "-v", "-n", "4", "--port-base", Integer.toString(base), jar.toString(), "wait"));
        ProcessBuilder builder = new ProcessBuilder(argv).redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().putAll(cluster.env());
        builder.environment().putAll(rankOptions());
        Process salloc = builder.start();
        try {
            waitUntil(JOB_BOUND, () -> count(out, "waiting") == 4, "four ranks waiting");
            String job = cluster.run(Duration.ofSeconds(10), "squeue", "-h", "-n", "sperli-wait", "-o", "%i").out()
                    .strip();
            assertEquals(0, cluster.run(Duration.ofSeconds(10), "scancel", job).exit());
            waitUntil(Duration.ofSeconds(60), () -> !salloc.isAlive(), "salloc to end after scancel");
            String said = Files.readString(err);
            assertTrue(said.contains("stopped by the operator") && said.contains("exit status 143"), said);
            assertNothingLeft();
        } finally {
            salloc.descendants().forEach(ProcessHandle::destroyForcibly);
            salloc.destroyForcibly();
        }
    }

    /** The call-home connection is an agent's standard input: its end (the launcher killed) ends the node's ranks. */
    @Test
    void theLaunchersEndEndsEveryNodesRanksAsTheEndOfStdinDoes() throws Exception {
        int base = LauncherHarness.freePortRange(4);
        Path out = dir.resolve("launcher-killed.out");
        List<String> argv = new ArrayList<>(List.of(SlurmCluster.path("salloc"), "-N", "2"));
        argv.addAll(sperli("run", "-n", "4", "--port-base", Integer.toString(base), jar.toString(), "wait"));
        ProcessBuilder builder = new ProcessBuilder(argv).redirectOutput(out.toFile())
                .redirectError(dir.resolve("launcher-killed.err").toFile());
        builder.environment().putAll(cluster.env());
        builder.environment().putAll(rankOptions());
        Process salloc = builder.start();
        try {
            waitUntil(JOB_BOUND, () -> count(out, "waiting") == 4, "four ranks waiting");
            ProcessHandle launcher = salloc.descendants()
                    .filter(p -> CommandLines.of(p).contains(Main.class.getName())).findFirst()
                    .orElseThrow(() -> new AssertionError("no launcher under salloc"));
            launcher.destroyForcibly();
            assertNothingLeft();
        } finally {
            salloc.descendants().forEach(ProcessHandle::destroyForcibly);
            salloc.destroyForcibly();
        }
    }

    @Test
    void aCheckpointedJobResumesOnTheOtherNodeWhenAnAgentIsKilled() throws Exception {
        resumesOnTheOtherNodeAfter((node, agent) -> agent.destroyForcibly(), "agent-killed");
    }

    /**
     * A node failure as the shared notes define it: slurmd, its step daemon and the agent (with its ranks) killed
     * together; slurmd alone would not fail the step. The launcher sees the agent's connection end, whatever srun and
     * slurmctld make of it later (SlurmdTimeout is 10 s in the test cluster), and ends srun within its own bound.
     */
    @Test
    void aCheckpointedJobResumesOnTheOtherNodeWhenANodeFails() throws Exception {
        assumeTrue(SlurmCluster.onPath("tini"), "skipped: a node's step daemons are found under its tini, and tini is"
                + " not installed");
        String[] crashed = {null};
        try {
            resumesOnTheOtherNodeAfter((node, agent) -> {
                crashed[0] = node;
                cluster.crashNode(node);
            }, "node-failed");
        } finally {
            if (crashed[0] != null) {
                // A failure to restore the node is the next test's (its @BeforeEach says so); this test's own
                // failure, if any, is the one to report.
                cluster.restoreNodeQuietly(crashed[0]);
            }
        }
    }

    /**
     * Runs a checkpointed job of 4 ranks on 2 nodes and, after its first checkpoint, applies {@code fault} to the node
     * of rank 3 and its agent: the job must complete in incarnation 2 on the node that is left.
     */
    private void resumesOnTheOtherNodeAfter(java.util.function.BiConsumer<String, ProcessHandle> fault, String name)
            throws Exception {
        Path checkpointJar = dir.resolve("checkpoint-job.jar");
        org.sperli.launcher.demo.JobJars.write(checkpointJar, CheckpointTestJob.class, CheckpointTestJob.State.class,
                CrashAtCheckpointStep.class);
        Path checkpoints = Files.createDirectories(dir.resolve(name + "-checkpoints"));
        int base = LauncherHarness.freePortRange(4);
        Path out = dir.resolve(name + ".out");
        Path err = dir.resolve(name + ".err");
        List<String> argv = new ArrayList<>(List.of(SlurmCluster.path("salloc"), "-N", "2", "--no-kill"));
        argv.addAll(sperli("run", "-v", "-n", "4", "--restart-max", "2", "--checkpoint-dir", checkpoints.toString(),
                "--port-base", Integer.toString(base), checkpointJar.toString(), "60", "5", "150"));
        ProcessBuilder builder = new ProcessBuilder(argv).redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().putAll(cluster.env());
        builder.environment().putAll(rankOptions());
        Process salloc = builder.start();
        long[] killed = {-1};
        try {
            waitUntil(JOB_BOUND, () -> count(out, "checkpoint epoch=1") == 1, "the first checkpoint");
            String node = nodeOfRank(Files.readString(err), 3);
            ProcessHandle agent = agentOf(node).orElseThrow(() -> new AssertionError("no agent on " + node));
            killed[0] = agent.pid();
            fault.accept(node, agent);
            waitUntil(JOB_BOUND, () -> !salloc.isAlive(), "the job to end");
            String said = Files.readString(out);
            String log = Files.readString(err);
            assertEquals(0, salloc.exitValue(), log);
            assertTrue(said.contains("result="), said);
            for (int rank = 0; rank < 4; rank++) {
                assertTrue(said.contains("rank=" + rank + " incarnation=2"), said);
            }
            assertTrue(said.contains("from=epoch"), said);
            assertTrue(log.contains("host agent on " + SlurmCluster.address(node) + " lost"), log);
            assertNothingLeft(agent.pid());
        } finally {
            salloc.descendants().forEach(ProcessHandle::destroyForcibly);
            salloc.destroyForcibly();
            // No later agent runs on n2 in this test to remove what the killed one left.
            agentDirectories().stream().filter(n -> n.startsWith("sperli-agent-" + killed[0] + "-")).forEach(n ->
                    SlurmCluster.delete(dir.resolve("tmp").resolve(n)));
        }
    }

    /** The node that the launcher said (with -v) it started {@code rank} on. */
    private static String nodeOfRank(String err, int rank) {
        Matcher m = Pattern.compile("rank " + rank + " on Slurm node (n\\d)").matcher(err);
        if (!m.find()) {
            throw new AssertionError("the launcher did not say where rank " + rank + " runs:\n" + err);
        }
        return m.group(1);
    }

    /** The host agent that runs as a task of Slurm node {@code node} (by its SLURMD_NODENAME). */
    private static java.util.Optional<ProcessHandle> agentOf(String node) {
        return ProcessHandle.allProcesses()
                .filter(p -> CommandLines.of(p).contains("--host-agent"))
                .filter(p -> {
                    try {
                        String environ = Files.readString(Path.of("/proc", Long.toString(p.pid()), "environ"),
                                java.nio.charset.StandardCharsets.ISO_8859_1);
                        return List.of(environ.split("\0")).contains("SLURMD_NODENAME=" + node);
                    } catch (IOException e) {
                        return false;
                    }
                }).findFirst();
    }

    private static long count(Path file, String word) {
        try {
            return Files.readAllLines(file).stream().filter(l -> l.contains(word)).count();
        } catch (IOException e) {
            return 0;
        }
    }

    /**
     * No job left in Slurm and no process of these tests' jobs (an agent or a rank, known by the job jar's directory
     * on its command line) anywhere on the machine, within a bound.
     */
    private static void assertNothingLeft() {
        assertNothingLeft(-1);
    }

    /**
     * As {@link #assertNothingLeft()}, but the directory of the agent {@code killedPid}, which was killed outright and
     * could not remove it, may stay: the next agent on that node removes it (docs/sperli-agent.md section 6).
     */
    private static void assertNothingLeft(long killedPid) {
        waitUntil(Duration.ofSeconds(30), () -> cluster.run(Duration.ofSeconds(10), "squeue", "-h").out().isBlank()
                && processesOfTheseJobs().isEmpty(), "the jobs' processes to end: " + processesOfTheseJobs());
        Set<String> left = new TreeSet<>(agentDirectories());
        left.removeAll(agentDirectoriesBefore);
        left.removeIf(name -> name.startsWith("sperli-agent-" + killedPid + "-"));
        assertEquals(Set.of(), left, "agent directories left behind");
    }

    /** The agents' directories in the launchers' temporary directory, which their agents and ranks take too. */
    private static Set<String> agentDirectories() {
        try (var list = Files.list(dir.resolve("tmp"))) {
            return list.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("sperli-agent-"))
                    .collect(java.util.stream.Collectors.toCollection(TreeSet::new));
        } catch (IOException e) {
            return Set.of();
        }
    }

    private static List<String> processesOfTheseJobs() {
        return ProcessHandle.allProcesses().filter(ProcessHandle::isAlive)
                .filter(p -> p.pid() != ProcessHandle.current().pid())
                .map(p -> p.pid() + " " + CommandLines.of(p))
                .filter(line -> line.contains("--call-home-port") || line.contains(dir.toString()))
                .toList();
    }

    private static void waitUntil(Duration bound, BooleanSupplier done, String what) {
        long deadline = System.nanoTime() + bound.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("waited " + bound.toSeconds() + " s for " + what);
            }
            SlurmCluster.sleep(200);
        }
    }
}
