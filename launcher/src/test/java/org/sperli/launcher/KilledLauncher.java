package org.sperli.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A launcher process whose ranks run the test job's {@code wait} mode, to be killed with SIGKILL: the checks that no
 * rank outlives it by more than {@link #ORPHAN_BOUND_MS} and that no PEM directory stays behind.
 */
public final class KilledLauncher {
    /** How long a rank may run on once its launcher was killed. */
    public static final long ORPHAN_BOUND_MS = 3000;

    private final Process launcher;
    private final Path out;

    private KilledLauncher(Process launcher, Path out) {
        this.launcher = launcher;
        this.out = out;
    }

    /** Starts {@code command} (a launcher) with its output to {@code out}, and waits until {@code ranks} wait. */
    public static KilledLauncher start(ProcessBuilder command, Path out, int ranks) throws Exception {
        Process launcher = command.redirectErrorStream(true).redirectOutput(out.toFile()).start();
        KilledLauncher k = new KilledLauncher(launcher, out);
        long deadline = System.nanoTime() + LauncherHarness.RUN_LIMIT.toNanos();
        while (k.waitingRanks() < ranks) {
            assertTrue(launcher.isAlive() && System.nanoTime() < deadline, "ranks not waiting:\n" + k.output());
            Thread.sleep(50);
        }
        return k;
    }

    public Process process() {
        return launcher;
    }

    /**
     * SIGKILLs the launcher, then requires each of {@code ranks} (found by {@code rankProcesses}, which must give
     * {@code expected} of them) gone within {@link #ORPHAN_BOUND_MS}, and {@code rankTmp} empty.
     */
    public void killAndAssertNothingLeft(Supplier<List<ProcessHandle>> rankProcesses, int expected, Path rankTmp)
            throws Exception {
        List<ProcessHandle> ranks = rankProcesses.get();
        assertEquals(expected, ranks.size(), "one process per rank and the host agent: " + ranks.stream()
                .map(p -> p.pid() + " " + p.info().command().orElse("?") + " " + String.join(" ",
                        p.info().arguments().map(a -> java.util.Arrays.stream(a).limit(2)
                                .map(w -> w.length() > 60 ? w.substring(0, 60) + "..." : w).toList())
                                .orElse(java.util.List.of()))).toList() + "\n" + output());
        launcher.destroyForcibly();
        assertTrue(launcher.waitFor(5, TimeUnit.SECONDS));
        long killedAt = System.nanoTime();
        for (ProcessHandle rank : ranks) {
            long left = ORPHAN_BOUND_MS - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt);
            rank.onExit().completeOnTimeout(null, Math.max(0, left), TimeUnit.MILLISECONDS).join();
            assertTrue(!rank.isAlive(), "rank pid " + rank.pid() + " still runs "
                    + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt) + " ms after the launcher's SIGKILL");
        }
        try (var left = Files.list(rankTmp)) {
            assertEquals(List.of(), left.toList(), "no PEM directory may be left behind");
        }
    }

    private long waitingRanks() throws IOException {
        return output().lines().filter(l -> l.matches("\\[rank \\d+\\] waiting")).count();
    }

    private String output() throws IOException {
        return Files.exists(out) ? Files.readString(out, StandardCharsets.UTF_8) : "";
    }
}
