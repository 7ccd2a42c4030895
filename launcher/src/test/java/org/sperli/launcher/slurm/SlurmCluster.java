package org.sperli.launcher.slurm;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.sperli.launcher.LauncherHarness;

/**
 * A real Slurm of four nodes (n1..n4, NodeAddr 127.0.0.1..4) on this machine, started by the tests: MUNGE
 * ({@link MungeDaemon}), slurmctld and four slurmd, each a child of the test JVM in the foreground (under tini as a
 * subreaper when installed), stopped by its PID, its directory removed. Where it cannot start (not root, a program
 * missing, a daemon that does not come up) the test is skipped with one line.
 */
final class SlurmCluster implements AutoCloseable {
    static final List<String> NODES = List.of("n1", "n2", "n3", "n4");
    static final Duration UP_BOUND = Duration.ofSeconds(30);
    private static final List<String> PROGRAMS = List.of("slurmctld", "slurmd", "srun", "salloc", "sbatch", "sinfo",
            "squeue", "scancel", "scontrol");

    private final Path dir;
    private final MungeDaemon munge;
    private final List<Process> daemons = new ArrayList<>();
    /** Each node's slurmd (its tini when there is one), by node name. */
    private final Map<String, Process> nodeDaemons = new HashMap<>();

    private SlurmCluster(Path dir, MungeDaemon munge) {
        this.dir = dir;
        this.munge = munge;
    }

    /** The cluster, or the calling test skipped with one line saying why not. */
    static SlurmCluster startOrSkip() throws IOException {
        String why = MungeDaemon.missing();
        for (String program : PROGRAMS) {
            if (why == null && !onPath(program)) {
                why = program + " is not installed (apt-get install slurmctld slurmd slurm-client)";
            }
        }
        if (why == null && !"root".equals(System.getProperty("user.name"))) {
            why = "slurmd of the test cluster runs as root, and this is " + System.getProperty("user.name");
        }
        assumeTrue(why == null, "skipped: no test Slurm: " + why);
        Path dir = Files.createTempDirectory("sperli-slurm");
        dir.toFile().setReadable(true, false);
        dir.toFile().setExecutable(true, false);
        MungeDaemon munge;
        try {
            munge = MungeDaemon.start(dir);
        } catch (IOException e) {
            delete(dir);
            assumeTrue(false, "skipped: no test Slurm: " + e.getMessage());
            throw e;
        }
        SlurmCluster cluster = new SlurmCluster(dir, munge);
        try {
            cluster.up();
        } catch (IOException | RuntimeException e) {
            cluster.close();
            assumeTrue(false, "skipped: no test Slurm: " + e.getMessage());
        }
        return cluster;
    }

    private void up() throws IOException {
        for (String sub : List.of("state", "log", "run", "spool")) {
            Files.createDirectories(dir.resolve(sub));
        }
        List<Integer> ports = LauncherHarness.freePorts(1 + NODES.size());
        String conf;
        try (InputStream in = SlurmCluster.class.getResourceAsStream("slurm.conf")) {
            conf = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        conf = conf.replace("@DIR@", dir.toString()).replace("@CTLD_PORT@", ports.get(0).toString());
        for (int i = 0; i < NODES.size(); i++) {
            Files.createDirectories(dir.resolve("spool/slurmd-" + NODES.get(i)));
            conf = conf.replace("@PORT" + (i + 1) + "@", ports.get(i + 1).toString());
        }
        Files.writeString(conf(), conf);
        daemons.add(daemon(List.of("slurmctld", "-D", "-c", "-f", conf().toString()), "slurmctld"));
        for (String node : NODES) {
            startNode(node);
        }
        awaitIdle();
    }

    private void startNode(String node) throws IOException {
        Process slurmd = daemon(List.of("slurmd", "-D", "-f", conf().toString(), "-N", node), "slurmd-" + node);
        daemons.add(slurmd);
        nodeDaemons.put(node, slurmd);
    }

    /**
     * Fails {@code node} as a crash would: SIGKILL to its slurmd and to everything under it (its step daemons, which
     * its tini reaps, and their tasks: the host agent and its ranks), all at once.
     */
    void crashNode(String node) {
        Process slurmd = nodeDaemons.get(node);
        List<ProcessHandle> all = new ArrayList<>(slurmd.descendants().toList());
        all.add(slurmd.toHandle());
        all.forEach(ProcessHandle::destroyForcibly);
        MungeDaemon.waitFor(slurmd, 10_000);
    }

    /** Starts a crashed node's slurmd again and returns it to service, so that the next test finds four idle nodes. */
    void restoreNode(String node) throws IOException {
        daemons.remove(nodeDaemons.get(node));
        startNode(node);
        run(Duration.ofSeconds(10), "scontrol", "update", "nodename=" + node, "state=resume");
        awaitIdle();
    }

    /** As {@link #restoreNode}, but a failure is only said on stderr: the next test's {@link #cancelEveryJob} sees it. */
    void restoreNodeQuietly(String node) {
        try {
            restoreNode(node);
        } catch (IOException | RuntimeException e) {
            System.err.println("test Slurm: node " + node + " not restored: " + e.getMessage());
        }
    }

    /** Cancels every job in the queue and waits until the four nodes are idle, within {@link #UP_BOUND}. */
    void cancelEveryJob() throws IOException {
        run(Duration.ofSeconds(10), "scancel", "--user", System.getProperty("user.name"));
        awaitIdle();
    }

    /** The loopback address a node's slurmd and agent use (slurm.conf: NodeAddr of n1..n4 is 127.0.0.1..4). */
    static String address(String node) {
        return "127.0.0." + (NODES.indexOf(node) + 1);
    }

    private void awaitIdle() throws IOException {
        long deadline = System.nanoTime() + UP_BOUND.toNanos();
        String state = "";
        while (System.nanoTime() < deadline) {
            state = run(Duration.ofSeconds(10), "sinfo", "-h", "-o", "%D %T").out().strip();
            if (state.equals(NODES.size() + " idle")) {
                return;
            }
            if (daemons.stream().anyMatch(p -> !p.isAlive())) {
                throw new IOException("a Slurm daemon ended at its start; see its log in " + dir.resolve("log"));
            }
            sleep(100);
        }
        throw new IOException("the nodes are not idle after " + UP_BOUND.toSeconds() + " s (sinfo: '" + state
                + "')");
    }

    private Process daemon(List<String> command, String name) throws IOException {
        List<String> argv = new ArrayList<>(reaper());
        argv.add(path(command.get(0)));
        argv.addAll(command.subList(1, command.size()));
        ProcessBuilder builder = new ProcessBuilder(argv).redirectErrorStream(true)
                .redirectOutput(dir.resolve("log/" + name + ".out").toFile());
        builder.environment().put("SLURM_CONF", conf().toString());
        return builder.start();
    }

    /** tini as a subreaper in front of a daemon when it is installed; nothing otherwise (slower job ends). */
    static List<String> reaper() {
        return onPath("tini") ? List.of(path("tini"), "-s", "--") : List.of();
    }

    Path conf() {
        return dir.resolve("slurm.conf");
    }

    Path dir() {
        return dir;
    }

    /** The variables a client of this cluster needs. */
    Map<String, String> env() {
        return Map.of("SLURM_CONF", conf().toString());
    }

    /** What a program printed and returned. */
    record Result(int exit, String out, String err) {
    }

    /** Runs a client of this cluster (with {@link #env()}) for at most {@code bound}; its output is kept. */
    Result run(Duration bound, String... argv) {
        return run(bound, Map.of(), List.of(argv));
    }

    Result run(Duration bound, Map<String, String> extraEnv, List<String> argv) {
        ProcessBuilder builder = new ProcessBuilder(argv);
        builder.environment().putAll(env());
        builder.environment().putAll(extraEnv);
        try {
            Process process = builder.start();
            process.getOutputStream().close();
            CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> text(process.getInputStream()));
            CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> text(process.getErrorStream()));
            if (!process.waitFor(bound.toMillis(), TimeUnit.MILLISECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
                return new Result(-1, out.getNow(""), "did not end within " + bound + ": " + err.getNow(""));
            }
            return new Result(process.exitValue(), out.get(5, TimeUnit.SECONDS), err.get(5, TimeUnit.SECONDS));
        } catch (Exception e) {
            return new Result(-1, "", String.valueOf(e));
        }
    }

    private static String text(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    /** Ends every job (slurmstepd outlives slurmd), then every daemon by its PID, then removes the directory. */
    @Override
    public void close() {
        if (!daemons.isEmpty() && daemons.get(0).isAlive()) {
            String jobs = run(Duration.ofSeconds(10), "squeue", "-h", "-o", "%i").out().strip();
            if (!jobs.isEmpty()) {
                List<String> cancel = new ArrayList<>(List.of("scancel"));
                cancel.addAll(List.of(jobs.split("\\s+")));
                run(Duration.ofSeconds(10), Map.of(), cancel);
                long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
                while (System.nanoTime() < deadline
                        && !run(Duration.ofSeconds(10), "squeue", "-h").out().isBlank()) {
                    sleep(100);
                }
            }
        }
        for (int i = daemons.size() - 1; i >= 0; i--) {
            stop(daemons.get(i));
        }
        munge.close();
        delete(dir);
    }

    /** SIGTERM, then SIGKILL after a bound; the daemon's own children (tini's) go with it. */
    static void stop(Process process) {
        List<ProcessHandle> children = process.descendants().toList();
        process.destroy();
        MungeDaemon.waitFor(process, 10_000);
        if (process.isAlive()) {
            process.destroyForcibly();
            MungeDaemon.waitFor(process, 5_000);
        }
        children.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }

    static boolean onPath(String program) {
        return !path(program).equals(program);
    }

    /** {@code program}'s absolute path on PATH or in the sbin directories (daemons live there), else the name. */
    static String path(String program) {
        List<String> dirs = new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")));
        dirs.addAll(List.of("/usr/sbin", "/sbin"));
        for (String d : dirs) {
            Path p = Path.of(d.isEmpty() ? "." : d, program);
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        return program;
    }

    static void delete(Path dir) {
        try (var walk = Files.walk(dir)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // Gone already.
        }
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The cluster's environment plus {@code extra}, for a launcher run in this JVM. */
    Map<String, String> envWith(Map<String, String> extra) {
        Map<String, String> all = new HashMap<>(env());
        all.putAll(extra);
        return all;
    }
}
