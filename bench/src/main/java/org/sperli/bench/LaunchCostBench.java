package org.sperli.bench;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.sperli.crypto.CompositeSig;
import org.sperli.identity.JobCa;
import org.sperli.identity.JobKit;
import org.sperli.identity.RankCredentials;
import org.sperli.jobspec.DescriptionLine;
import org.sperli.jobspec.JobDescription;
import org.sperli.jobspec.JoinToken;
import org.sperli.jobspec.JoinTokens;
import org.sperli.protocol.JobId;
import org.sperli.protocol.Limits;

/**
 * What the launcher's cryptography costs before a job starts: {@code scripts/bench launchcost [runs]}.
 *
 * <p>"Make a job" is what the launcher does per start: a job id, the job CA, the CompositeSig job key, and per rank an
 * Ed25519 key and certificate (with its PEM texts, as they go into the description) and a signed join token. One
 * thread, to show where the time goes; then the launcher's own path on all cores ({@link JobKit#lines}). After two
 * seconds of warm-up (64-rank jobs), sizes 8 and 64 are made {@code runs} times (default 5) and the median is shown;
 * 4096 three times. Those figures are of a warm JVM with C2; a launcher is a fresh JVM with C1 only, so the launcher's
 * path is also timed in {@code runs} fresh JVMs started with {@code lib/sperli.sh}'s launcher options and class path
 * (64 and 4096 ranks, median). Then join-token verification (decode, CompositeSig verify with the job public key,
 * field checks), which each rank does once per peer, in verifications per second.
 */
public final class LaunchCostBench {
    private static final int[] SIZES = {8, 64, 4096};
    private static final int[] COLD_SIZES = {64, 4096};
    private static final String COLD_PATH = "--cold-path";
    private static final long COLD_RUN_TIMEOUT_S = 300;
    private static final int LARGE = 4096;
    /** Runs of the largest size in this JVM: a median of three, as one run on a shared machine can be 20 % off. */
    private static final int LARGE_RUNS = 3;
    private static final int DEFAULT_RUNS = 5;
    private static final long WARM_UP_NS = 2_000_000_000L;
    private static final long VERIFY_WARM_UP_NS = 1_000_000_000L;
    private static final long VERIFY_MEASURE_NS = 3_000_000_000L;
    private static final long TOKEN_LIFETIME_MS = 3_600_000L;
    private static final SecureRandom RANDOM = new SecureRandom();

    /** Milliseconds spent on each part of making one job. */
    private record Cost(double setupMs, double certificatesMs, double tokensMs) {
        double totalMs() {
            return setupMs + certificatesMs + tokensMs;
        }
    }

    private LaunchCostBench() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 2 && args[0].equals(COLD_PATH)) {
            // One job in this fresh JVM: what a launcher process pays, JIT warm-up and class loading included.
            System.out.printf(Locale.ROOT, "%.1f%n", launcherPathMs(Integer.parseInt(args[1])));
            return;
        }
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : DEFAULT_RUNS;
        run(System.out, runs);
    }

    static void run(PrintStream out, int runs) throws IOException, InterruptedException {
        long started = System.nanoTime();
        out.printf(Locale.ROOT, "LaunchCostBench  java.version=%s  vm=%s  cpus=%d  breakdown on one thread%n",
                System.getProperty("java.version"), System.getProperty("java.vm.name"),
                Runtime.getRuntime().availableProcessors());
        long warmUpEnd = System.nanoTime() + WARM_UP_NS;
        while (System.nanoTime() < warmUpEnd) {
            makeJob(64);
        }
        out.printf(Locale.ROOT, "%6s %5s %11s %11s %11s %11s %12s%n", "ranks", "runs", "setup ms", "certs ms",
                "tokens ms", "total ms", "ms per rank");
        for (int size : SIZES) {
            int n = size >= LARGE ? Math.min(runs, LARGE_RUNS) : runs;
            Cost[] costs = new Cost[n];
            for (int i = 0; i < n; i++) {
                costs[i] = makeJob(size);
            }
            Arrays.sort(costs, (a, b) -> Double.compare(a.totalMs(), b.totalMs()));
            Cost median = costs[n / 2];
            out.printf(Locale.ROOT, "%6d %5d %11.1f %11.1f %11.1f %11.1f %12.3f%n", size, n, median.setupMs(),
                    median.certificatesMs(), median.tokensMs(), median.totalMs(), median.totalMs() / size);
        }
        out.printf(Locale.ROOT, "the launcher's own path, all %d cores (JobKit.create and lines: keys, certificates,"
                + " tokens and the encoded descriptions)%n", Runtime.getRuntime().availableProcessors());
        out.printf(Locale.ROOT, "%6s %5s %11s %12s%n", "ranks", "runs", "total ms", "ms per rank");
        for (int size : SIZES) {
            int n = size >= LARGE ? Math.min(runs, LARGE_RUNS) : runs;
            double[] ms = new double[n];
            for (int i = 0; i < n; i++) {
                ms[i] = launcherPathMs(size);
            }
            Arrays.sort(ms);
            out.printf(Locale.ROOT, "%6d %5d %11.1f %12.3f%n", size, n, ms[n / 2], ms[n / 2] / size);
        }
        List<String> options = launcherJvmOptions();
        String classPath = coldClassPath();
        out.printf(Locale.ROOT, "the same path in a fresh JVM per run, started as sperli_exec starts the launcher (%s;"
                + " class path %s): the first job of a launcher process%n", String.join(" ", options),
                classPath.equals(System.getProperty("java.class.path")) ? "this benchmark's, with the signed jars"
                        : "the launcher's jar");
        out.printf(Locale.ROOT, "%6s %5s %11s %12s%n", "ranks", "runs", "total ms", "ms per rank");
        for (int size : COLD_SIZES) {
            double[] ms = new double[runs];
            for (int i = 0; i < runs; i++) {
                ms[i] = coldLauncherPathMs(options, classPath, size);
            }
            Arrays.sort(ms);
            out.printf(Locale.ROOT, "%6d %5d %11.1f %12.3f%n", size, runs, ms[runs / 2], ms[runs / 2] / size);
        }
        double perSecond = tokenVerificationsPerSecond();
        out.printf(Locale.ROOT, "token verifications per second: %.0f (%.3f ms each)%n", perSecond,
                1000.0 / perSecond);
        out.printf(Locale.ROOT, "total %.1f s%n", (System.nanoTime() - started) / 1e9);
    }

    /**
     * The JVM options {@code sperli_exec} gives the launcher, read from {@code lib/sperli.sh} (this benchmark runs
     * from the repository's root, as {@code scripts/bench} starts it) so that the two cannot drift apart.
     */
    private static List<String> launcherJvmOptions() throws IOException {
        Path script = Path.of("dist", "src", "main", "layout", "lib", "sperli.sh");
        Matcher defaults = Pattern.compile("local defaults=\\(([^)]*)\\)").matcher(Files.readString(script));
        if (!defaults.find()) {
            throw new IllegalStateException("no 'local defaults=(...)' in " + script);
        }
        return List.of(defaults.group(1).strip().split("\\s+"));
    }

    /**
     * The class path of the fresh JVMs: this benchmark's classes and the launcher's own jar (every dependency inside,
     * unsigned), as {@code sperli_exec} runs it. The benchmark's class path holds the signed jars of Bouncy Castle and
     * ACCP, which the JDK verifies as it loads their first class (about 0.1 s here) and a launcher never sees; it is
     * used only when there is no launcher jar or it is older than the common module's classes.
     */
    private static String coldClassPath() throws IOException {
        String own = System.getProperty("java.class.path");
        Path benchClasses = Path.of("bench", "target", "classes");
        Path launcherJar = null;
        try (DirectoryStream<Path> jars = Files.newDirectoryStream(Path.of("launcher", "target"),
                "sperli-launcher-*-all.jar")) {
            for (Path jar : jars) {
                launcherJar = jar;
            }
        } catch (NoSuchFileException e) {
            return own;
        }
        if (launcherJar == null || !Files.isDirectory(benchClasses)) {
            return own;
        }
        for (String entry : own.split(File.pathSeparator)) {
            Path common = Path.of(entry);
            String name = common.getFileName().toString();
            boolean commonJar = name.startsWith("sperli-common-") && name.endsWith(".jar")
                    && !name.endsWith("-tests.jar");
            if (commonJar && Files.getLastModifiedTime(launcherJar).compareTo(Files.getLastModifiedTime(common)) < 0) {
                return own;
            }
        }
        return benchClasses + File.pathSeparator + launcherJar;
    }

    /** {@link #launcherPathMs} of one job in a fresh JVM with {@code options}, in ms. */
    private static double coldLauncherPathMs(List<String> options, String classPath, int size)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(options);
        command.addAll(List.of("-cp", classPath, LaunchCostBench.class.getName(), COLD_PATH, String.valueOf(size)));
        BoundedChild.Finished run = BoundedChild.start(command).finish(COLD_RUN_TIMEOUT_S);
        String output = run.output().strip();
        if (!run.endedInTime() || run.status() != 0) {
            throw new IllegalStateException("cold launcher path of " + size + " ranks "
                    + (run.endedInTime() ? "failed" : "took over " + COLD_RUN_TIMEOUT_S + " s") + ": " + output);
        }
        return Double.parseDouble(output.substring(output.lastIndexOf('\n') + 1));
    }

    /** What the launcher does before it starts the ranks of a job of {@code size} ranks, in ms. */
    private static double launcherPathMs(int size) {
        List<JobDescription.HostEntry> hosts = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            hosts.add(new JobDescription.HostEntry(host(r), 47000 + r % 1000));
        }
        long t0 = System.nanoTime();
        JobKit kit = JobKit.create(hosts, Limits.DEFAULT_SILENCE_MS, JobKit.JOB_LIFETIME,
                Instant.now(), RANDOM);
        DescriptionLine[] lines = kit.lines(1, Instant.now());
        long t1 = System.nanoTime();
        for (DescriptionLine line : lines) {
            line.wipe();
        }
        return (t1 - t0) / 1e6;
    }

    /** Makes the keys, certificates and tokens of a job of {@code size} ranks on hosts node<r>.example. */
    private static Cost makeJob(int size) {
        long t0 = System.nanoTime();
        JobId job = JobId.random(RANDOM);
        Instant now = Instant.now();
        JobCa ca = JobCa.create(job, now, RANDOM);
        CompositeSig.KeyPair jobKey = CompositeSig.generate(RANDOM);
        String caPem = ca.certificatePem();
        long t1 = System.nanoTime();
        long pemChars = caPem.length();
        for (int r = 0; r < size; r++) {
            RankCredentials credentials = ca.issueRankCertificate(job, r, host(r), now);
            pemChars += credentials.certificatePem().length() + credentials.privateKeyPem().length();
        }
        long t2 = System.nanoTime();
        byte[] secretKey = jobKey.secretKey();
        // As the launcher does (JobKit): the job key made ready once, then every token signed with it.
        CompositeSig.Signer signer = CompositeSig.signer(secretKey);
        Arrays.fill(secretKey, (byte) 0);
        long tokenBytes = 0;
        long expiryMs = now.toEpochMilli() + TOKEN_LIFETIME_MS;
        for (int r = 0; r < size; r++) {
            tokenBytes += JoinTokens.sign(JoinToken.unsigned(job, r, size, 1, expiryMs, host(r)), signer).length;
        }
        long t3 = System.nanoTime();
        if (pemChars <= 0 || tokenBytes <= 0) {
            throw new IllegalStateException("nothing was made");
        }
        return new Cost((t1 - t0) / 1e6, (t2 - t1) / 1e6, (t3 - t2) / 1e6);
    }

    private static double tokenVerificationsPerSecond() {
        JobId job = JobId.random(RANDOM);
        CompositeSig.KeyPair jobKey = CompositeSig.generate(RANDOM);
        long nowMs = System.currentTimeMillis();
        byte[] token = JoinTokens.sign(JoinToken.unsigned(job, 3, 64, 1, nowMs + TOKEN_LIFETIME_MS, host(3)),
                jobKey.secretKey());
        byte[] publicKey = jobKey.publicKey();
        long warmUpEnd = System.nanoTime() + VERIFY_WARM_UP_NS;
        while (System.nanoTime() < warmUpEnd) {
            JoinTokens.verify(token, publicKey, job, 3, 3, 64, 1, host(3), nowMs);
        }
        long count = 0;
        long start = System.nanoTime();
        long end = start + VERIFY_MEASURE_NS;
        long now;
        do {
            JoinTokens.verify(token, publicKey, job, 3, 3, 64, 1, host(3), nowMs);
            count++;
            now = System.nanoTime();
        } while (now < end);
        return count / ((now - start) / 1e9);
    }

    private static String host(int rank) {
        return "node" + rank + ".example";
    }
}
