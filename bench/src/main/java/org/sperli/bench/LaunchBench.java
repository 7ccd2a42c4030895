package org.sperli.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.sperli.launcher.job.LaunchTimeline;

/**
 * {@code scripts/bench launch [--runs R] [--ranks 1,4,8,16] [--with-64] [--ssh-dir DIR]}: the examples' hello job on
 * N local ranks, start to exit, beside what the machine allows, all in one run:
 *
 * <ul>
 *   <li>SPERLI: {@code scripts/sperli demo --ranks N -v}, on JDK 17 (this JVM's java) and on every other JDK given
 *       in {@code SPERLI_BENCH_JDKS} (default: {@code /usr/lib/jvm/temurin-25-jdk-amd64} when it exists), with the
 *       phase breakdown of {@code -v} (median over the ranks, then over the runs);</li>
 *   <li>the floor: N + 1 bare JVMs (a launcher and N ranks) that each print hello, started at once;</li>
 *   <li>the TLS floors ({@link TlsMeshFloor}, up to 32 ranks, this JVM's JDK): "TLS mesh", N JVMs that start as
 *       ranks do and make the protocol's full mesh of mutually authenticated TLS 1.3 connections with JSSE, and
 *       nothing else: what any implementation with a JVM per rank and SunJSSE pays on this machine, so that the ratio
 *       to it is SPERLI's own cost; "TLS JVMs", the same JVMs connecting to nobody;</li>
 *   <li>{@code mpirun -np N} of a C hello, when {@code mpirun} and {@code mpicc} are installed (Open MPI over
 * TCP).</li>
 * </ul>
 *
 * <p>Each cell is the median of R runs (default 3) after two discarded warm-up runs per JDK (which also make the
 * class-data archive and the AOT cache the first time). {@code --with-64} adds a 64-rank run and the peak resident
 * memory of its ranks, and the examples' checkpointed job on 64 ranks (allreduces and a checkpoint) per JDK.
 * {@code --ssh-dir DIR} adds the same job over SSH to one host beside local ranks ({@link SshLaunch}).
 */
public final class LaunchBench {
    /** The columns of the launcher's -v table, which this benchmark reads. */
    private static final List<String> PHASES = LaunchTimeline.COLUMNS;
    /** The column before the phases: when the launcher's JVM started, from the heading of the -v table. */
    private static final String LAUNCHER_JVM = "jvm";
    private static final Pattern JVM_STARTED = Pattern.compile("the launcher's JVM started ([0-9.]+) s before it");
    private static final long RUN_TIMEOUT_S = 600;
    /** Steps of the checkpointed job at 64 ranks, a checkpoint every ten: one allreduce per step and one at the end. */
    private static final int CHECKPOINTED_STEPS = 20;
    private static final List<String> CHECKPOINTED_ARGS = List.of(String.valueOf(CHECKPOINTED_STEPS), "10");
    /** The largest job the TLS mesh floor runs for (it has a thread per connection). */
    private static final int MESH_FLOOR_MAX_RANKS = 32;
    /** How much of a failed job's verdict line the table shows. */
    private static final int VERDICT_CHARS = 400;

    private LaunchBench() {
    }

    public static void main(String[] args) throws Exception {
        Options options = Options.parse(args);
        int runs = options.runs();
        List<Integer> sizes = options.sizes();
        boolean with64 = options.with64();
        Map<String, String> jdks = jdks();
        Path mpiHello = MpiHello.build();
        System.out.printf(Locale.ROOT, "launch benchmark: hello job, start to exit, median of %d runs; %d cores%n",
                runs, Runtime.getRuntime().availableProcessors());
        System.out.println("JDKs: " + jdks + "; mpirun: " + (mpiHello == null ? "not installed (column left out)"
                : "Open MPI, " + mpiHello.getParent()));
        for (String jdk : jdks.keySet()) {
            // The first job makes the class-data archive, the second the AOT cache of JDK 25 and later.
            run(jdks.get(jdk), 2);
            run(jdks.get(jdk), 2);
        }
        Map<String, Map<Integer, Result>> results = new LinkedHashMap<>();
        for (int n : sizes) {
            for (Map.Entry<String, String> jdk : jdks.entrySet()) {
                List<Result> each = new ArrayList<>();
                for (int r = 0; r < (n >= 64 ? 1 : runs); r++) {
                    each.add(run(jdk.getValue(), n));
                }
                results.computeIfAbsent(jdk.getKey(), k -> new LinkedHashMap<>()).put(n, Result.median(each));
            }
        }
        Map<Integer, Double> floor = new LinkedHashMap<>();
        Map<Integer, Double> tlsJvms = new LinkedHashMap<>();
        Map<Integer, Double> meshFloor = new LinkedHashMap<>();
        Map<Integer, Double> mpi = new LinkedHashMap<>();
        boolean archived = TlsMeshFloor.archived();
        for (int n : sizes) {
            floor.put(n, medianOf(runs, () -> bareJvms(n + 1)));
            tlsJvms.put(n, n > MESH_FLOOR_MAX_RANKS ? Double.NaN : tlsFloor(runs, () -> TlsMeshFloor.withoutMesh(n)));
            meshFloor.put(n, n > MESH_FLOOR_MAX_RANKS ? Double.NaN : tlsFloor(runs, () -> TlsMeshFloor.run(n)));
            if (mpiHello != null) {
                mpi.put(n, medianOf(runs, () -> MpiHello.run(mpiHello, n)));
            }
        }
        printTable(sizes, results, new Floors(floor, tlsJvms, meshFloor), mpi);
        System.out.printf(Locale.ROOT, "TLS mesh (%s): what the JVMs and their TLS mesh cost without anything else"
                + " of SPERLI: N JVMs that start as local ranks do (their JVM options, ACCP, %s), load their"
                + " identity and make the full mesh of TLS 1.3 connections with mutual Ed25519 authentication (JSSE"
                + " sockets, a thread each, one byte each way), and one bare JVM for the launcher; TLS JVMs: the same"
                + " JVMs, each alone in a job of its own (no connection); both up to %d ranks (a thread per"
                + " connection would measure threads beyond)%n", jdks.keySet().iterator().next(),
                archived ? "the ranks' class-data archive" : "no class-data archive: none made yet",
                MESH_FLOOR_MAX_RANKS);
        printPhases(results);
        if (with64) {
            printSixtyFour(results, jdks);
        }
        if (options.sshDirOrNull() != null) {
            try {
                SshLaunch.print(jdks, sizes.stream().filter(n -> n < 64).toList(), runs, options.sshDirOrNull());
            } catch (IllegalStateException | IOException e) {
                System.err.println("launch benchmark over SSH: " + e.getMessage());
                System.exit(1);
            }
        }
    }

    /** The command line; a bad one ends the benchmark with its usage line and exit status 2. */
    private record Options(int runs, List<Integer> sizes, boolean with64, Path sshDirOrNull) {
        static Options parse(String[] args) {
            int runs = 3;
            List<Integer> sizes = new ArrayList<>(List.of(1, 4, 8, 16));
            boolean with64 = false;
            Path sshDir = null;
            try {
                for (int i = 0; i < args.length; i++) {
                    switch (args[i]) {
                        case "--runs" -> runs = Integer.parseInt(args[++i]);
                        case "--ranks" -> sizes = Arrays.stream(args[++i].split(",")).map(Integer::valueOf).toList();
                        case "--with-64" -> with64 = true;
                        case "--ssh-dir" -> sshDir = Path.of(args[++i]);
                        default -> throw new IllegalArgumentException(args[i]);
                    }
                }
                if (runs < 1 || sizes.stream().anyMatch(n -> n < 1 || n > 4096)
                        || sshDir != null && !Files.isDirectory(sshDir)) {
                    throw new IllegalArgumentException("runs, ranks or SSH directory");
                }
            } catch (IllegalArgumentException | ArrayIndexOutOfBoundsException e) {
                System.err.println("usage: scripts/bench launch [--runs R>=1] [--ranks 1,4,8,16] [--with-64]"
                        + " [--ssh-dir EXISTING-DIR]");
                System.exit(2);
            }
            if (with64 && !sizes.contains(64)) {
                sizes = new ArrayList<>(sizes);
                sizes.add(64);
            }
            return new Options(runs, sizes, with64, sshDir);
        }
    }

    /** The 64-rank lines: whether hello completed and the ranks' memory, then the checkpointed job per JDK. */
    private static void printSixtyFour(Map<String, Map<Integer, Result>> results, Map<String, String> jdks)
            throws IOException, InterruptedException {
        for (Map.Entry<String, Map<Integer, Result>> e : results.entrySet()) {
            Result r = e.getValue().get(64);
            System.out.printf(Locale.ROOT, "64 ranks on %s: %s; peak resident memory per rank: median %d MiB,"
                    + " max %d MiB%n", e.getKey(), r.status == 0 ? "completed" : "FAILED (exit " + r.status + ")",
                    r.medianRssKb / 1024, r.maxRssKb / 1024);
        }
        for (Map.Entry<String, String> jdk : jdks.entrySet()) {
            System.out.printf(Locale.ROOT, "64 ranks, %d allreduces and a checkpoint (examples' checkpointed job,"
                    + " %s) on %s: %s%n", CHECKPOINTED_STEPS + 1, String.join(" ", CHECKPOINTED_ARGS),
                    jdk.getKey(), checkpointed(jdk.getValue(), 64));
        }
    }

    /**
     * The examples' checkpointed job on {@code n} local ranks with {@code javaHome}, in a checkpoint directory made
     * for it and deleted after: "completed in S s", or why not.
     */
    private static String checkpointed(String javaHome, int n) throws IOException, InterruptedException {
        Path jar = exampleJar("-checkpointed.jar");
        if (jar == null) {
            return "not run: no examples/target/*-checkpointed.jar (build the examples module)";
        }
        // Owner-only, as a checkpoint directory must be; deleted with everything the job wrote.
        Path dir = Files.createTempDirectory("sperli-bench-ckpt-");
        try {
            List<String> command = new ArrayList<>(List.of("scripts/sperli", "run", "-n", String.valueOf(n),
                    "--checkpoint-dir", dir.toString(), jar.toString()));
            command.addAll(CHECKPOINTED_ARGS);
            BoundedChild.Finished job = BoundedChild.start(command, javaHome).finish(RUN_TIMEOUT_S);
            if (!job.endedInTime()) {
                return "FAILED: still running after " + RUN_TIMEOUT_S + " s";
            }
            boolean checkpointed = job.output().contains("checkpoint epoch 1 at step");
            boolean result = job.output().contains("result ");
            if (job.status() == 0 && checkpointed && result) {
                return String.format(Locale.ROOT, "completed in %.1f s", job.seconds());
            }
            return "FAILED (exit " + job.status() + (checkpointed ? "" : ", no checkpoint")
                    + (result ? "" : ", no result") + "): " + verdict(job.output());
        } finally {
            try (Stream<Path> written = Files.walk(dir)) {
                for (Path f : written.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(f);
                }
            }
        }
    }

    /** The examples' jar whose name ends with {@code suffix}, or null when the examples module was not built. */
    static Path exampleJar(String suffix) throws IOException {
        try (Stream<Path> jars = Files.list(Path.of("examples", "target"))) {
            return jars.filter(f -> f.getFileName().toString().endsWith(suffix)).findFirst().orElse(null);
        }
    }

    private static Map<String, String> jdks() {
        Map<String, String> jdks = new LinkedHashMap<>();
        jdks.put("JDK " + Runtime.version().feature(), System.getProperty("java.home"));
        String more = System.getenv().getOrDefault("SPERLI_BENCH_JDKS", "/usr/lib/jvm/temurin-25-jdk-amd64");
        for (String home : more.split(":")) {
            Path release = Path.of(home, "release");
            if (home.isBlank() || !Files.isRegularFile(release) || home.equals(System.getProperty("java.home"))) {
                continue;
            }
            try {
                String version = Files.readAllLines(release).stream().filter(l -> l.startsWith("JAVA_VERSION="))
                        .findFirst().orElse("JAVA_VERSION=\"?\"").replaceAll("JAVA_VERSION=\"?([0-9]+).*", "$1");
                jdks.put("JDK " + version, home);
            } catch (IOException e) {
                // a JDK we cannot read is left out
            }
        }
        return jdks;
    }

    /** One {@code scripts/sperli demo --ranks n -v} with {@code javaHome}. */
    private static Result run(String javaHome, int n) throws IOException, InterruptedException {
        BoundedChild demo = BoundedChild.start(List.of("scripts/sperli", "demo", "--ranks", String.valueOf(n), "-v"),
                javaHome);
        RssWatch watch = n >= 64 ? RssWatch.start(demo.process().toHandle()) : null;
        BoundedChild.Finished job = demo.finish(RUN_TIMEOUT_S);
        long[] rss = watch == null ? new long[] {0, 0} : watch.stop();
        return new Result(job.seconds(), job.status(), phases(job.output()), rss[0], rss[1],
                job.status() == 0 ? null : verdict(job.output()));
    }

    /** The launcher's last line about the job ("sperli: job ...: ... exit status N"), or the last line at all. */
    static String verdict(String output) {
        List<String> lines = output.lines().filter(l -> !l.isBlank()).toList();
        String last = lines.isEmpty() ? "(no output)" : lines.get(lines.size() - 1);
        for (int i = lines.size() - 1; i >= 0; i--) {
            if (lines.get(i).startsWith("sperli: job ") && lines.get(i).contains("exit status")) {
                last = lines.get(i);
                break;
            }
        }
        return last.length() <= VERDICT_CHARS ? last : last.substring(0, VERDICT_CHARS) + "...";
    }

    /**
     * When the launcher's JVM started (a negative offset from the launch, from the table's heading), then per phase
     * the median over the ranks of the -v table (for more than 16 ranks, its median row).
     */
    static double[] phases(String output) {
        double[] medians = new double[PHASES.size() + 1];
        Arrays.fill(medians, Double.NaN);
        List<double[]> rows = new ArrayList<>();
        boolean inTable = false;
        for (String line : output.lines().toList()) {
            String text = line.startsWith("sperli: ") ? line.substring(8) : line;
            if (text.contains("phases, seconds since the launch")) {
                inTable = true;
                rows.clear();
                Matcher jvm = JVM_STARTED.matcher(text);
                medians[0] = jvm.find() ? -Double.parseDouble(jvm.group(1)) : Double.NaN;
                continue;
            }
            String[] cells = text.trim().split("\\s+");
            if (!inTable || cells.length != PHASES.size() + 1 || cells[0].equals("rank")) {
                continue;
            }
            if (cells[0].equals("median")) {
                rows.clear();
            } else if (!cells[0].matches("\\d+")) {
                continue;
            }
            double[] row = new double[PHASES.size()];
            for (int c = 0; c < PHASES.size(); c++) {
                row[c] = cells[c + 1].equals("-") ? Double.NaN : Double.parseDouble(cells[c + 1]);
            }
            rows.add(row);
            if (cells[0].equals("median")) {
                inTable = false;
            }
        }
        for (int c = 0; c < PHASES.size(); c++) {
            final int column = c;
            medians[c + 1] = median(rows.stream().mapToDouble(r -> r[column]).filter(v -> !Double.isNaN(v))
                    .toArray());
        }
        return medians;
    }

    /** {@code count} JVMs of this bench's java printing hello, started at once; seconds until the last ended. */
    private static double bareJvms(int count) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = System.getProperty("java.class.path");
        long start = System.nanoTime();
        List<Process> ps = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ps.add(new ProcessBuilder(java, "-cp", classPath, Hello.class.getName())
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectErrorStream(true).start());
        }
        for (Process p : ps) {
            p.waitFor(60, TimeUnit.SECONDS);
        }
        return (System.nanoTime() - start) / 1e9;
    }

    /** A TLS floor's median, or NaN (with the reason on stderr) when it failed. */
    private static double tlsFloor(int runs, Measure floor) throws IOException, InterruptedException {
        try {
            return medianOf(runs, floor);
        } catch (IllegalStateException e) {
            System.err.println("launch benchmark: " + e.getMessage());
            return Double.NaN;
        }
    }

    /**
     * The floors of one run by rank count: bare JVMs, JVMs that start the TLS stack alone, and JVMs that make the TLS
     * mesh (NaN where not run).
     */
    private record Floors(Map<Integer, Double> bare, Map<Integer, Double> tlsJvms, Map<Integer, Double> mesh) {
    }

    /** A floor's cell: seconds, or a dash where it was not measured. */
    private static String seconds(double s) {
        return Double.isNaN(s) ? String.format(Locale.ROOT, " | %8s", "-")
                : String.format(Locale.ROOT, " | %6.2f s", s);
    }

    private static void printTable(List<Integer> sizes, Map<String, Map<Integer, Result>> results, Floors floors,
                                   Map<Integer, Double> mpi) {
        Map<Integer, Double> floor = floors.bare();
        String firstJdk = results.keySet().iterator().next();
        StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "%6s", "ranks"));
        for (String jdk : results.keySet()) {
            head.append(String.format(Locale.ROOT, " | %13s", "SPERLI " + jdk));
        }
        head.append(String.format(Locale.ROOT, " | %14s | %8s | %8s", "N+1 bare JVMs", "TLS JVMs", "TLS mesh"));
        if (!mpi.isEmpty()) {
            head.append(String.format(Locale.ROOT, " | %8s", "mpirun"));
        }
        for (String jdk : results.keySet()) {
            head.append(String.format(Locale.ROOT, " | %9s", jdk.replace("JDK ", "") + "/floor"));
            if (jdk.equals(firstJdk)) {
                head.append(String.format(Locale.ROOT, " | %9s", jdk.replace("JDK ", "") + "/mesh"));
            }
            if (!mpi.isEmpty()) {
                head.append(String.format(Locale.ROOT, " | %9s", jdk.replace("JDK ", "") + "/mpi"));
            }
        }
        System.out.println();
        System.out.println(head);
        for (int n : sizes) {
            StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%6d", n));
            for (Map<Integer, Result> byJdk : results.values()) {
                Result r = byJdk.get(n);
                row.append(String.format(Locale.ROOT, " | %11.2f s%s", r.seconds, r.status == 0 ? "" : "!"));
            }
            row.append(String.format(Locale.ROOT, " | %12.2f s", floor.get(n)));
            double mesh = floors.mesh().get(n);
            row.append(seconds(floors.tlsJvms().get(n))).append(seconds(mesh));
            if (!mpi.isEmpty()) {
                row.append(String.format(Locale.ROOT, " | %6.2f s", mpi.get(n)));
            }
            for (Map.Entry<String, Map<Integer, Result>> byJdk : results.entrySet()) {
                double s = byJdk.getValue().get(n).seconds;
                row.append(String.format(Locale.ROOT, " | %8.1fx", s / floor.get(n)));
                if (byJdk.getKey().equals(firstJdk)) {
                    row.append(Double.isNaN(mesh) ? String.format(Locale.ROOT, " | %9s", "-")
                            : String.format(Locale.ROOT, " | %8.1fx", s / mesh));
                }
                if (!mpi.isEmpty()) {
                    row.append(String.format(Locale.ROOT, " | %8.1fx", s / mpi.get(n)));
                }
            }
            System.out.println(row);
        }
        System.out.println("(! : the job did not complete)");
        for (Map.Entry<String, Map<Integer, Result>> byJdk : results.entrySet()) {
            for (Map.Entry<Integer, Result> e : byJdk.getValue().entrySet()) {
                if (e.getValue().verdict() != null) {
                    System.out.printf(Locale.ROOT, "! %d ranks on %s: %s%n", e.getKey(), byJdk.getKey(),
                            e.getValue().verdict());
                }
            }
        }
    }

    private static void printPhases(Map<String, Map<Integer, Result>> results) {
        System.out.println();
        System.out.println("phases (sperli run -v): seconds from the launch until each phase ended, median over the"
                + " ranks and the runs; jvm: when the launcher's JVM started");
        StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "%-7s %5s %7s", "JDK", "ranks",
                LAUNCHER_JVM));
        for (String p : PHASES) {
            head.append(String.format(Locale.ROOT, " %7s", p));
        }
        System.out.println(head);
        for (Map.Entry<String, Map<Integer, Result>> byJdk : results.entrySet()) {
            for (Map.Entry<Integer, Result> e : byJdk.getValue().entrySet()) {
                StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%-7s %5d",
                        byJdk.getKey().replace("JDK ", ""), e.getKey()));
                for (double v : e.getValue().phases) {
                    row.append(Double.isNaN(v) ? String.format(Locale.ROOT, " %7s", "-")
                            : String.format(Locale.ROOT, " %7.3f", v));
                }
                System.out.println(row);
            }
        }
    }

    private interface Measure {
        double seconds() throws IOException, InterruptedException;
    }

    private static double medianOf(int runs, Measure m) throws IOException, InterruptedException {
        double[] values = new double[runs];
        for (int i = 0; i < runs; i++) {
            values[i] = m.seconds();
        }
        return median(values);
    }

    static double median(double[] values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted.length % 2 == 1 ? sorted[sorted.length / 2]
                : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
    }

    /** One run: wall seconds, exit status, phase medians, peak RSS of the ranks (KiB; 64-rank runs only). */
    /** {@code verdict}: the launcher's line that says why a job failed, or null. */
    private record Result(double seconds, int status, double[] phases, long medianRssKb, long maxRssKb,
                          String verdict) {
        static Result median(List<Result> each) {
            double[] phases = new double[PHASES.size() + 1];
            for (int c = 0; c < phases.length; c++) {
                final int column = c;
                phases[c] = LaunchBench.median(each.stream().mapToDouble(r -> r.phases[column])
                        .filter(v -> !Double.isNaN(v)).toArray());
            }
            Result failed = each.stream().filter(r -> r.status != 0).findFirst().orElse(null);
            return new Result(LaunchBench.median(each.stream().mapToDouble(Result::seconds).toArray()),
                    failed == null ? 0 : failed.status, phases, each.get(0).medianRssKb, each.get(0).maxRssKb,
                    failed == null ? null : failed.verdict);
        }
    }

    /** The JVM the floor runs: prints hello and exits. */
    public static final class Hello {
        public static void main(String[] args) {
            System.out.println("hello");
        }
    }
}
