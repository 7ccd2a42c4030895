package org.sperli.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The host agent of the local ranks killed with SIGKILL mid-job: its ranks read the end of their standard input and
 * stop within {@link KilledLauncher#ORPHAN_BOUND_MS}, the launcher takes them as lost and restarts the job with a new
 * agent, which completes it.
 */
class AgentKilledTest {
    private static final Pattern FIRST = Pattern.compile("\\[rank (\\d)] rank=\\d size=3 incarnation=1 pid=(\\d+)");

    @TempDir
    Path dir;

    @AfterEach
    void cleanUp() {
        LauncherHarness.killDescendants();
    }

    @Test
    void sigkillOfTheHostAgentEndsItsRanksWithinThreeSecondsAndTheJobRestarts() throws Exception {
        Path jar = LauncherHarness.testJar(dir);
        List<Integer> ports = LauncherHarness.freePorts(3);
        List<ProcessHandle> firstRanks = new CopyOnWriteArrayList<>();
        CompletableFuture<Long> agentKilledAt = new CompletableFuture<>();
        List<Long> exitedAt = new CopyOnWriteArrayList<>();
        CompletableFuture<Long> killedAgent = new CompletableFuture<>();

        LauncherHarness.Run run = LauncherHarness.run(LauncherHarness.environment(Map.of()), line -> {
            Matcher m = FIRST.matcher(line);
            if (m.matches()) {
                ProcessHandle.of(Long.parseLong(m.group(2))).ifPresent(firstRanks::add);
                if (firstRanks.size() == 3) {
                    ProcessHandle agent = firstRanks.get(0).parent().orElseThrow();
                    killedAgent.complete(agent.pid());
                    agentKilledAt.complete(System.nanoTime());
                    firstRanks.forEach(rank -> rank.onExit().thenRun(() -> exitedAt.add(System.nanoTime())));
                    agent.destroyForcibly();
                }
            }
        }, command -> { }, "run", "--restart-max", "1", "--hosts", LauncherHarness.hosts(ports, "localhost"),
                jar.toString(), "kill-rank-1");

        assertTrue(agentKilledAt.isDone(), "the agent was never killed: " + run.out());
        // The ranks are not this JVM's children: the JDK sees their end by polling (every 300 ms and more), so the
        // last of them may be reported after a quick restart has already ended the run.
        long reportBound = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (exitedAt.size() < 3 && System.nanoTime() < reportBound) {
            Thread.sleep(50);
        }
        assertEquals(3, exitedAt.size(), "ranks of incarnation 1 that ended");
        for (long at : exitedAt) {
            long ms = TimeUnit.NANOSECONDS.toMillis(at - agentKilledAt.join());
            assertTrue(ms <= KilledLauncher.ORPHAN_BOUND_MS, "a rank outlived its agent by " + ms + " ms");
        }
        assertEquals(0, run.exitCode(), run.out() + run.err());
        assertTrue(run.err().contains("host agent on localhost lost"), run.err());
        assertTrue(run.err().contains("restarting the job as incarnation 2 (restart 1 of 1)"), run.err());
        assertTrue(run.out().contains("[rank 0] sum=3 incarnation=2"), run.out());
        LauncherHarness.assertNoProcessLeft();
        // The killed agent could not remove its directory; the next agent in the same temporary directory did.
        try (Stream<Path> left = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            assertEquals(List.of(), left.filter(p -> p.getFileName().toString()
                    .startsWith("sperli-agent-" + killedAgent.join() + "-")).toList());
        }
    }
}
