package org.sperli.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The SSH lines of {@code scripts/bench launch --ssh-dir DIR}: the examples' hello job on N ranks of one host reached
 * over SSH ({@code sperli run --ssh --ssh-dir DIR}, host {@code localhost}, which DIR's {@code config} may send to
 * any port, with its {@code known_hosts} and key) beside the same job on N local ranks, the two run in turn, R pairs;
 * then what each rank costs over SSH beyond a local one, against the launch issue's target of
 * {@value #TARGET_PER_RANK_S} s. The host's ranks run the JDK of the row ({@code --remote-java}), which must be
 * there at the same path. The SSH server, its user and that user's shell start-up are the operator's: a
 * {@code ~/.bashrc} that takes half a second is paid by every SSH command (docs/performance.md, section 4).
 */
final class SshLaunch {
    static final double TARGET_PER_RANK_S = 0.1;
    private static final long RUN_TIMEOUT_S = 600;

    private SshLaunch() {
    }

    /** Runs the pairs for every JDK and size and prints the table. */
    static void print(Map<String, String> jdks, List<Integer> sizes, int runs, Path sshDir)
            throws IOException, InterruptedException {
        Path jar = LaunchBench.exampleJar("-hello.jar");
        if (jar == null) {
            throw new IOException("no examples/target/*-hello.jar (build the examples module)");
        }
        System.out.printf(Locale.ROOT, "over SSH to one host (sperli run --ssh --ssh-dir %s, localhost), median of %d"
                + " runs, each in turn with a local one:%n", sshDir, runs);
        System.out.printf(Locale.ROOT, "%-7s %5s %9s %9s %22s%n", "JDK", "ranks", "local", "SSH",
                "SSH - local, per rank");
        for (Map.Entry<String, String> jdk : jdks.entrySet()) {
            // The first SSH job of a build stages the rank daemon and the jar; the next ones make its archive.
            seconds(jdk.getValue(), command(sshDir, jdk.getValue(), 2, jar));
            seconds(jdk.getValue(), command(sshDir, jdk.getValue(), 2, jar));
            for (int n : sizes) {
                double[] local = new double[runs];
                double[] ssh = new double[runs];
                for (int r = 0; r < runs; r++) {
                    local[r] = seconds(jdk.getValue(), command(null, jdk.getValue(), n, jar));
                    ssh[r] = seconds(jdk.getValue(), command(sshDir, jdk.getValue(), n, jar));
                }
                double perRank = (LaunchBench.median(ssh) - LaunchBench.median(local)) / n;
                System.out.printf(Locale.ROOT, "%-7s %5d %7.2f s %7.2f s %20.2f s  target <= %.1f s: %s%n",
                        jdk.getKey(), n, LaunchBench.median(local), LaunchBench.median(ssh), perRank,
                        TARGET_PER_RANK_S, perRank <= TARGET_PER_RANK_S ? "met" : "not met");
            }
        }
    }

    /** The hello job on {@code n} ranks, over SSH with {@code sshDirOrNull}, whose ranks run the same JDK. */
    private static List<String> command(Path sshDirOrNull, String javaHome, int n, Path jar) {
        List<String> command = new ArrayList<>(List.of("scripts/sperli", "run", "-n", String.valueOf(n)));
        if (sshDirOrNull != null) {
            command.addAll(List.of("--ssh", "--ssh-dir", sshDirOrNull.toString(), "--remote-java",
                    Path.of(javaHome, "bin", "java").toString()));
        }
        command.add(jar.toString());
        return command;
    }

    /** Wall seconds of {@code command} with {@code javaHome}; a job that fails ends the benchmark with its verdict. */
    private static double seconds(String javaHome, List<String> command) throws IOException, InterruptedException {
        BoundedChild.Finished job = BoundedChild.start(command, javaHome).finish(RUN_TIMEOUT_S);
        if (!job.endedInTime()) {
            throw new IllegalStateException(String.join(" ", command) + ": still running after " + RUN_TIMEOUT_S
                    + " s");
        }
        if (job.status() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed: "
                    + LaunchBench.verdict(job.output()));
        }
        return job.seconds();
    }
}
