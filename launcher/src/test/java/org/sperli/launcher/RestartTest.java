package org.sperli.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A rank killed with SIGKILL mid-job: the launcher restarts the whole job as incarnation 2, which completes. */
class RestartTest {
    private static final Pattern RANK_1_FIRST = Pattern.compile("\\[rank 1] rank=1 size=4 incarnation=1 pid=(\\d+)");

    @TempDir
    Path dir;

    @AfterEach
    void cleanUp() {
        LauncherHarness.killDescendants();
    }

    @Test
    void rankKilledBySigkillLeadsToIncarnationTwoAndTheCorrectResult() throws IOException {
        Path jar = LauncherHarness.testJar(dir);
        List<Integer> ports = LauncherHarness.freePorts(4);
        AtomicLong killed = new AtomicLong(-1);

        LauncherHarness.Run run = LauncherHarness.run(LauncherHarness.environment(Map.of()), line -> {
            Matcher m = RANK_1_FIRST.matcher(line);
            if (m.matches()) {
                long pid = Long.parseLong(m.group(1));
                // destroyForcibly is SIGKILL on Unix: no BYE, no ABORT, the peers see the connection drop.
                ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
                killed.set(pid);
            }
        }, command -> { }, "run", "--restart-max", "2", "--hosts", LauncherHarness.hosts(ports, "localhost"),
                jar.toString(), "kill-rank-1");

        assertTrue(killed.get() > 0, "rank 1 never printed its pid: " + run.out());
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.err().contains("rank 1 (local pid " + killed.get() + ") was killed by signal 9"), run.err());
        assertTrue(run.err().contains("restarting the job as incarnation 2 (restart 1 of 2)"), run.err());
        assertTrue(run.out().contains("[rank 0] sum=6 incarnation=2"), run.out());
        assertTrue(run.err().contains("completed; ranks 4, incarnations used 2 (restarts allowed 2)"), run.err());
        LauncherHarness.assertNoProcessLeft();
    }
}
