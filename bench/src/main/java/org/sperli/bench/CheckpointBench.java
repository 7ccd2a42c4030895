package org.sperli.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.sperli.crypto.CompositeSig;
import org.sperli.crypto.CryptoEngine;
import org.sperli.runtime.CheckpointSettings;
import org.sperli.runtime.RankRuntime;

/**
 * Time of {@code checkpoint} with 64 MiB of state per rank at 4 ranks, every rank an {@link InProcessJob} thread on
 * loopback TLS 1.3 with its own checkpoint directory on one disk, next to {@code dd ... conv=fsync} of 256 MiB into
 * the same directory: {@code scripts/bench checkpoint [dir] [rounds]} (default {@code bench/target/checkpoint-bench},
 * 7 rounds after two warm-up checkpoints, on the TLS engine a rank takes; dd runs as often).
 *
 * <p>A round is a barrier, the checkpoint, and a barrier, timed on rank 0, so it ends when every rank holds the COMMIT.
 * A checkpoint writes each state twice (the rank file, and the buddy copy at the next rank), hashes it four times
 * (the state and the whole file on writing, the same two on receiving the copy), and sends it once through TLS, with
 * an fsync per file: "state MB/s" is the state of all ranks (256 MiB) per second, "written MB/s" the bytes that reach
 * the disk (512 MiB) per second, which is what dd's figure compares with, in the last line as the ratio of the two
 * medians against the runtime issue's target of at least 0.5. All ranks share this machine's cores and disk. 10^6
 * bytes per MB.
 */
public final class CheckpointBench {
    private static final int RANKS = 4;
    private static final int STATE_BYTES = 64 << 20;
    private static final int DD_MIB = 256;
    /** Rounds of each: a round of either is a second or less, and on this shared disk three left the median loose. */
    private static final int DEFAULT_ROUNDS = 7;
    /** The runtime issue's target: bytes written per second at least half of dd's. */
    private static final double TARGET_OF_DD = 0.5;
    /** Checkpoints before the timed ones: the first runs the code cold, the second is still partly compiled. */
    private static final int WARM_UP = 2;
    private static final Duration LIMIT = Duration.ofSeconds(80);
    private static final long DD_LIMIT_S = 60;

    private CheckpointBench() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        Path dir = Paths.get(args.length > 0 ? args[0] : "bench/target/checkpoint-bench").toAbsolutePath();
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : DEFAULT_ROUNDS;
        run(System.out, dir, rounds);
    }

    static void run(PrintStream out, Path dir, int rounds) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        // The engine a rank takes (auto, or SPERLI_TLS_ENGINE): it serves the buddy copy's TLS and the SHA-256.
        CryptoEngine.Choice engine = CryptoEngine.select(null, System.getenv());
        out.printf(Locale.ROOT, "CheckpointBench  java.version=%s  vm=%s  cores=%d  dir=%s  %d rounds, %d warm-up%n",
                System.getProperty("java.version"), System.getProperty("java.vm.name"),
                Runtime.getRuntime().availableProcessors(), dir, rounds, WARM_UP);
        out.println(engine.note());
        long started = System.nanoTime();
        double[] checkpointS;
        try {
            checkpointS = checkpoints(dir, rounds);
        } finally {
            deleteTree(dir.resolve("ranks"));
        }
        double[] ddS = new double[rounds];
        for (int i = 0; i < rounds; i++) {
            ddS[i] = dd(dir.resolve("dd.bin"));
        }
        Files.deleteIfExists(dir.resolve("dd.bin"));
        long stateBytes = (long) RANKS * STATE_BYTES;
        out.printf(Locale.ROOT, "%-40s %5s %10s %9s %8s %12s %13s%n", "case", "ranks", "data", "median s", "best s",
                "state MB/s", "written MB/s");
        double written = row(out, "checkpoint (rank file + buddy copy)", String.valueOf(RANKS), "64 MiB/rank",
                checkpointS, stateBytes, 2 * stateBytes);
        double dd = row(out, "dd bs=1M count=" + DD_MIB + " conv=fsync", "-", DD_MIB + " MiB", ddS, -1,
                (long) DD_MIB << 20);
        double ratio = written / dd;
        out.printf(Locale.ROOT, "written / dd (medians)  %.2f  target >= %.1f: %s%n", ratio, TARGET_OF_DD,
                ratio >= TARGET_OF_DD ? "met" : "not met");
        out.printf(Locale.ROOT, "total %.1f s%n", (System.nanoTime() - started) / 1e9);
    }

    /** Prints one row; returns its written MB/s. */
    private static double row(PrintStream out, String label, String ranks, String data, double[] seconds,
                              long stateBytes, long writtenBytes) {
        double[] s = seconds.clone();
        Arrays.sort(s);
        double median = s[s.length / 2];
        out.printf(Locale.ROOT, "%-40s %5s %10s %9.3f %8.3f %12s %13.1f%n", label, ranks, data, median, s[0],
                stateBytes < 0 ? "-" : String.format(Locale.ROOT, "%.1f", stateBytes / 1e6 / median),
                writtenBytes / 1e6 / median);
        return writtenBytes / 1e6 / median;
    }

    /** {@link #WARM_UP} warm-up checkpoints, then {@code rounds} timed ones; seconds per round as rank 0 saw them. */
    private static double[] checkpoints(Path dir, int rounds) {
        InProcessJob job = new InProcessJob(RANKS);
        CompositeSig.KeyPair key = CompositeSig.generate(new SecureRandom());
        List<double[]> perRank = job.run(LIMIT, r -> job.config(r).withCheckpoints(new CheckpointSettings(
                dir.resolve("ranks").resolve("rank-" + r), key.publicKey(), r == 0 ? key.secretKey() : null)), rt -> {
                    byte[] state = new byte[STATE_BYTES];
                    new SplittableRandom(rt.rank()).nextBytes(state);
                    for (int i = 0; i < WARM_UP; i++) {
                        checkpoint(rt, state);
                    }
                    double[] seconds = new double[rounds];
                    for (int i = 0; i < rounds; i++) {
                        seconds[i] = checkpoint(rt, state) / 1e9;
                    }
                    return seconds;
                });
        return perRank.get(0);
    }

    private static long checkpoint(RankRuntime rt, byte[] state) {
        rt.barrier();
        long t0 = System.nanoTime();
        rt.checkpoint(out -> out.write(state));
        rt.barrier();
        return System.nanoTime() - t0;
    }

    /** Seconds of {@code dd if=/dev/zero of=file bs=1M count=256 conv=fsync}, wall clock around the process. */
    private static double dd(Path file) throws IOException, InterruptedException {
        BoundedChild.Finished dd = BoundedChild.start(List.of("dd", "if=/dev/zero", "of=" + file, "bs=1M",
                "count=" + DD_MIB, "conv=fsync")).finish(DD_LIMIT_S);
        if (!dd.endedInTime() || dd.status() != 0) {
            throw new IOException("dd " + (dd.endedInTime() ? "failed" : "took over " + DD_LIMIT_S + " s") + ": "
                    + dd.output().strip());
        }
        return dd.seconds();
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
