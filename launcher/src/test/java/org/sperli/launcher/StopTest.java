package org.sperli.launcher;

import org.sperli.launcher.command.SperliCommand;
import org.sperli.launcher.exit.ExitCodes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What Main's shutdown hook does on Ctrl-C or SIGTERM: stop every rank (SIGTERM, bounded wait, kill) and print the
 * summary; no restart follows and no process is left.
 */
class StopTest {
    @TempDir
    Path dir;

    @AfterEach
    void cleanUp() {
        LauncherHarness.killDescendants();
    }

    @Test
    void stoppingTheLauncherEndsEveryRankWithoutRestart() throws Exception {
        Path jar = LauncherHarness.testJar(dir);
        List<Integer> ports = LauncherHarness.freePorts(4);
        CountDownLatch waiting = new CountDownLatch(4);
        AtomicReference<SperliCommand> command = new AtomicReference<>();
        Thread stopper = new Thread(() -> {
            try {
                if (waiting.await(LauncherHarness.RUN_LIMIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS)) {
                    command.get().jobControl().stopAll(Duration.ofSeconds(30));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        stopper.start();

        LauncherHarness.Run run = LauncherHarness.run(LauncherHarness.environment(Map.of()), line -> {
            if (line.endsWith("] waiting")) {
                waiting.countDown();
            }
        }, command::set, "run", "--restart-max", "3", "--hosts", LauncherHarness.hosts(ports, "localhost"),
                jar.toString(), "wait");
        stopper.join(Duration.ofSeconds(30).toMillis());

        assertEquals(ExitCodes.TERMINATED, run.exitCode(), run.err());
        assertTrue(run.err().contains("stopped by the operator; ranks 4, incarnations used 1"), run.err());
        assertTrue(!run.err().contains("restarting"), run.err());
        LauncherHarness.assertNoProcessLeft();
    }
}
