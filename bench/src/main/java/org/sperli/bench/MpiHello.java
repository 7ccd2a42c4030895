package org.sperli.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The baseline of {@link LaunchBench}: an MPI hello in C, built with {@code mpicc} into a temporary directory and run
 * with {@code mpirun -np N} over TCP on this machine (Open MPI: {@code --mca btl tcp,self}, oversubscribed as SPERLI
 * is, allowed as root as CI runs).
 */
final class MpiHello {
    private static final long LIMIT_S = 300;
    private static final String SOURCE = String.join("\n",
            "#include <mpi.h>",
            "#include <stdio.h>",
            "int main(int argc, char **argv) {",
            "  int rank, size;",
            "  MPI_Init(&argc, &argv);",
            "  MPI_Comm_rank(MPI_COMM_WORLD, &rank);",
            "  MPI_Comm_size(MPI_COMM_WORLD, &size);",
            "  printf(\"hello from rank %d of %d\\n\", rank, size);",
            "  MPI_Finalize();",
            "  return 0;",
            "}", "");

    private MpiHello() {
    }

    /** The built binary, or null when mpicc or mpirun is not installed or the build failed. */
    static Path build() throws IOException, InterruptedException {
        return build("hello", SOURCE);
    }

    /** {@code source} built with {@code mpicc} as {@code name} in a temporary directory; null as {@link #build()}. */
    static Path build(String name, String source) throws IOException, InterruptedException {
        if (!onPath("mpicc") || !onPath("mpirun")) {
            return null;
        }
        Path dir = Files.createTempDirectory("sperli-bench-mpi-");
        dir.toFile().deleteOnExit();
        Path sourceFile = Files.writeString(dir.resolve(name + ".c"), source);
        Path binary = dir.resolve(name);
        Process cc = new ProcessBuilder("mpicc", "-O2", "-o", binary.toString(), sourceFile.toString())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!cc.waitFor(120, TimeUnit.SECONDS) || cc.exitValue() != 0) {
            return null;
        }
        binary.toFile().deleteOnExit();
        sourceFile.toFile().deleteOnExit();
        return binary;
    }

    /** Seconds from start to exit of {@code mpirun -np n binary}. */
    static double run(Path binary, int n) throws IOException, InterruptedException {
        ProcessBuilder pb = mpirun(n, binary).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        long start = System.nanoTime();
        endedInTime(pb.start());
        return (System.nanoTime() - start) / 1e9;
    }

    /** {@code mpirun -np n binary args...} over TCP on this machine, as every baseline of the benchmarks runs. */
    static ProcessBuilder mpirun(int n, Path binary, String... args) {
        List<String> command = new ArrayList<>(List.of("mpirun", "--allow-run-as-root", "--oversubscribe",
                "--mca", "btl", "tcp,self", "-np", String.valueOf(n), binary.toString()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command);
    }

    /**
     * Waits for {@code mpirun} at most {@value #LIMIT_S} s; after that kills it and its ranks (which a killed mpirun
     * would leave running) and returns false.
     */
    static boolean endedInTime(Process mpirun) throws InterruptedException {
        if (mpirun.waitFor(LIMIT_S, TimeUnit.SECONDS)) {
            return true;
        }
        mpirun.descendants().forEach(ProcessHandle::destroyForcibly);
        mpirun.destroyForcibly();
        return false;
    }

    private static boolean onPath(String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, command))) {
                return true;
            }
        }
        return false;
    }
}
