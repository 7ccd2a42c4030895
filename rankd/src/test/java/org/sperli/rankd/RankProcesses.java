package org.sperli.rankd;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Stream;

/** The rank processes a test started; {@link #close} kills any that still run. */
final class RankProcesses implements AutoCloseable {
    final List<RankProcess> ranks = new ArrayList<>();
    private final Path workDir;

    RankProcesses(Path workDir) {
        this.workDir = workDir;
    }

    /** Starts rank {@code rank} of {@code job} with {@code args} and feeds it its description. */
    RankProcess start(LocalJob job, int rank, List<String> args, Map<String, String> env) throws IOException {
        RankProcess p = RankProcess.start(workDir, "rank-" + rank, args, env);
        ranks.add(p);
        p.feed(job.line(rank));
        return p;
    }

    RankProcess get(int i) {
        return ranks.get(i);
    }

    /** Waits until {@code condition} holds for every process, failing after {@code bound}. */
    void awaitAll(Predicate<RankProcess> condition, Duration bound, String what)
            throws InterruptedException, IOException {
        long deadline = System.nanoTime() + bound.toNanos();
        while (!ranks.stream().allMatch(condition)) {
            if (System.nanoTime() > deadline) {
                StringBuilder s = new StringBuilder("not every rank " + what + " within " + bound);
                for (RankProcess p : ranks) {
                    s.append("\n").append(p.name).append(" alive=").append(p.process.isAlive()).append(" stderr: ")
                            .append(p.stderr());
                }
                throw new AssertionError(s.toString());
            }
            Thread.sleep(50);
        }
    }

    /** Whether the process's stdout contains {@code text} (false when it cannot be read yet). */
    static boolean printed(RankProcess p, String text) {
        try {
            return p.stdout().contains(text);
        } catch (IOException e) {
            return false;
        }
    }

    /** The entries of a rank's {@code java.io.tmpdir}. */
    static List<Path> tmpEntries(RankProcess p) throws IOException {
        try (Stream<Path> entries = Files.list(p.tmpdir)) {
            return entries.toList();
        }
    }

    @Override
    public void close() {
        for (RankProcess p : ranks) {
            p.process.destroyForcibly();
        }
        for (RankProcess p : ranks) {
            p.close();
        }
    }
}
