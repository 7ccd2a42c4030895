package org.sperli.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The baseline of {@link CollectivesBench}: the same cases in C with Open MPI's collectives, run with
 * {@code mpirun -np N} over TCP on this machine (as {@link MpiHello}), timed as the benchmark times SPERLI: rounds of
 * {@code calls} calls in a row and one barrier, timed on rank 0, after a warm-up of the same length; the median round.
 */
final class MpiCollectives {
    private static final String SOURCE = String.join("\n",
            "#include <mpi.h>",
            "#include <stdio.h>",
            "#include <stdlib.h>",
            "#include <string.h>",
            "static int cmp(const void *a, const void *b) {",
            "  double x = *(const double *) a, y = *(const double *) b;",
            "  return x < y ? -1 : x > y;",
            "}",
            "/* argv: allreduce|bcast|barrier, bytes, calls, rounds, warm-up seconds; prints the median ms per call */",
            "int main(int argc, char **argv) {",
            "  int rank, size, warming = 1, r = 0;",
            "  MPI_Init(&argc, &argv);",
            "  MPI_Comm_rank(MPI_COMM_WORLD, &rank);",
            "  MPI_Comm_size(MPI_COMM_WORLD, &size);",
            "  const char *op = argv[1];",
            "  long bytes = atol(argv[2]);",
            "  int calls = atoi(argv[3]), rounds = atoi(argv[4]);",
            "  double warm = atof(argv[5]);",
            "  char *in = malloc(bytes + 8), *out = malloc(bytes + 8);",
            "  double *ms = malloc(sizeof(double) * rounds);",
            "  for (long i = 0; i < bytes / 8; i++) ((double *) in)[i] = (double) ((i * 7 + rank) % 1000) / 1000.0;",
            "  double start = MPI_Wtime();",
            "  while (r < rounds) {",
            "    double t0 = MPI_Wtime();",
            "    for (int c = 0; c < calls; c++) {",
            "      if (!strcmp(op, \"allreduce\")) {",
            "        MPI_Allreduce(in, out, (int) (bytes / 8), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);",
            "      } else if (!strcmp(op, \"bcast\")) {",
            "        MPI_Bcast(in, (int) bytes, MPI_BYTE, 0, MPI_COMM_WORLD);",
            "      } else {",
            "        MPI_Barrier(MPI_COMM_WORLD);",
            "      }",
            "    }",
            "    MPI_Barrier(MPI_COMM_WORLD);",
            "    double t = MPI_Wtime() - t0;",
            "    int go = !warming || MPI_Wtime() - start >= warm;",
            "    MPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);",
            "    if (warming) {",
            "      warming = !go;",
            "      continue;",
            "    }",
            "    ms[r++] = t * 1000.0 / calls;",
            "  }",
            "  if (rank == 0) {",
            "    qsort(ms, rounds, sizeof(double), cmp);",
            "    printf(\"%.4f\\n\", ms[rounds / 2]);",
            "  }",
            "  MPI_Finalize();",
            "  return 0;",
            "}", "");

    private MpiCollectives() {
    }

    /** The built binary, or null when Open MPI is not installed or the build failed. */
    static Path build() throws IOException, InterruptedException {
        return MpiHello.build("collectives", SOURCE);
    }

    /** Median ms per call of {@code op} on {@code ranks} ranks, or NaN when the run failed. */
    static double medianMs(Path binary, String op, int ranks, long bytes, int calls, int rounds, double warmUpS)
            throws IOException, InterruptedException {
        // Into a file, not a pipe: reading a pipe would wait for a hung mpirun past the bound below.
        Path out = binary.resolveSibling(binary.getFileName() + ".out");
        Process p = MpiHello.mpirun(ranks, binary, op, String.valueOf(bytes), String.valueOf(calls),
                String.valueOf(rounds), String.format(Locale.ROOT, "%.1f", warmUpS))
                .redirectError(ProcessBuilder.Redirect.DISCARD).redirectOutput(out.toFile()).start();
        try {
            if (!MpiHello.endedInTime(p)) {
                return Double.NaN;
            }
            return p.exitValue() == 0 ? Double.parseDouble(Files.readString(out, StandardCharsets.UTF_8).trim())
                    : Double.NaN;
        } catch (NumberFormatException e) {
            return Double.NaN;
        } finally {
            Files.deleteIfExists(out);
        }
    }
}
