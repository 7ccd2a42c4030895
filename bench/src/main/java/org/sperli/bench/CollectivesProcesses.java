package org.sperli.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.sperli.checkpoint.DurableFiles;
import org.sperli.launcher.demo.JobJars;
import org.sperli.runtime.CollectiveShape;

/**
 * Runs one case of {@link CollectivesBench} with every rank a process, as users run jobs: this JVM's java runs the
 * launcher ({@code sperli run -n N}, local ranks on free ports, the TLS engine the environment chooses) with a job jar
 * of {@link CollectivesJob}, and rank 0's result line is read from the launcher's output.
 */
final class CollectivesProcesses {
    /**
     * Shortest and longest warm-up of a case whose ranks are processes ({@link WarmUp}): every JVM compiles the code
     * alone, 8 of them on this machine's cores, so they need longer than the threads of one JVM to reach steady state.
     */
    static final long WARM_UP_NS = 12_000_000_000L;
    static final long LONGEST_WARM_UP_NS = 120_000_000_000L;
    private static final long LIMIT_S = 300;

    /** Rank 0's median ms per call and seconds of warm-up; both NaN when the job gave no result. */
    record Result(double medianMs, double warmUpS) {
        static final Result NONE = new Result(Double.NaN, Double.NaN);
    }

    private CollectivesProcesses() {
    }

    /** Rank 0's result, or {@link Result#NONE} when the job did not end with one (said on stderr). */
    static Result run(int caseIndex, int ranks, int rounds, CollectiveShape shape) {
        Path dir = null;
        try {
            dir = Files.createTempDirectory("sperli-bench-collectives");
            Path jar = JobJars.write(dir.resolve("collectives-job.jar"), CollectivesJob.class);
            List<String> command = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), "org.sperli.launcher.Main",
                    "run", "-n", String.valueOf(ranks), "--no-prefix",
                    "--collectives", shape.name().toLowerCase(Locale.ROOT), jar.toString(),
                    String.valueOf(caseIndex), String.valueOf(rounds), String.valueOf(WARM_UP_NS),
                    String.valueOf(LONGEST_WARM_UP_NS)));
            Path log = dir.resolve("launcher.log");
            Process launcher = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile())
                    .start();
            if (!launcher.waitFor(LIMIT_S, TimeUnit.SECONDS)) {
                // SIGTERM: the launcher ends its ranks; then the bound for that.
                launcher.destroy();
                if (!launcher.waitFor(30, TimeUnit.SECONDS)) {
                    launcher.destroyForcibly();
                }
            }
            String output = Files.readString(log, StandardCharsets.UTF_8);
            for (String line : output.split("\n")) {
                if (line.startsWith(CollectivesJob.RESULT)) {
                    String[] figures = line.substring(CollectivesJob.RESULT.length()).strip().split(" ");
                    return new Result(Double.parseDouble(figures[0]), Double.parseDouble(figures[1]));
                }
            }
            System.err.println("collectives case " + caseIndex + " as processes gave no result:\n" + output);
            return Result.NONE;
        } catch (IOException e) {
            System.err.println("collectives case " + caseIndex + " as processes: " + e.getMessage());
            return Result.NONE;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Result.NONE;
        } finally {
            removeQuietly(dir);
        }
    }

    private static void removeQuietly(Path dir) {
        if (dir == null) {
            return;
        }
        try {
            DurableFiles.deleteTree(dir);
        } catch (IOException e) {
            // a temporary directory left behind is harmless
        }
    }
}
