package org.sperli.launcher.ssh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sperli.launcher.LauncherHarness;
import org.sperli.launcher.demo.JobJars;
import org.sperli.launcher.testjob.CheckpointTestJob;
import org.sperli.launcher.testjob.CrashAtCheckpointStep;

/**
 * More ranks on one SSH host than a stock OpenSSH server allows channels on one connection (MaxSessions 10, which
 * the embedded server enforces): the launcher logs in once and starts one host agent, which starts all of them, and
 * a restart of the job reuses the login and the agent.
 */
class ManyRanksOnOneHostTest {
    private static final int RANKS = 32;

    @TempDir
    Path dir;
    private EmbeddedSshServer server;
    private Path sshDir;

    @BeforeEach
    void startServer() throws Exception {
        server = EmbeddedSshServer.start(Files.createDirectory(dir.resolve("remote-home")));
        server.installRankd();
        sshDir = dir.resolve("ssh");
        server.writeClientFiles(sshDir, "id_ecdsa", List.of("localhost"));
        Files.writeString(sshDir.resolve("config"), "Host localhost\n    Port " + server.port()
                + "\n    User sperli-test\n");
    }

    @AfterEach
    void stopServer() throws Exception {
        LauncherHarness.killDescendants();
        server.close();
    }

    @Test
    void thirtyTwoRanksOnAHostThatAllowsTenChannelsCompleteACheckpointedRestartOnOneLogin() throws Exception {
        Path jar = dir.resolve("checkpoint-job.jar");
        JobJars.write(jar, CheckpointTestJob.class, CheckpointTestJob.State.class, CrashAtCheckpointStep.class);
        int base = LauncherHarness.freePortRange(RANKS);

        // Rank 17 ends itself at the first checkpoint's BEFORE_ACK of epoch 2; incarnation 2 resumes epoch 1.
        LauncherHarness.Run run = LauncherHarness.run(Duration.ofMinutes(6), LauncherHarness.environment(Map.of()), "run",
                "--ssh",
                "--ssh-dir", sshDir.toString(), "--restart-max", "1", "--checkpoint-dir",
                dir.resolve("checkpoints").toString(), "--port-base", Integer.toString(base),
                "--hosts", "localhost/" + RANKS, jar.toString(), "30", "10", "0", "17", "BEFORE_ACK", "2");

        assertEquals(0, run.exitCode(), run.out() + run.err());
        assertTrue(run.out().contains("[rank 17] crashing at BEFORE_ACK of epoch 2"), run.out() + run.err());
        assertTrue(run.err().contains("restarting the job as incarnation 2 (restart 1 of 1)"), run.err());
        for (int rank = 0; rank < RANKS; rank++) {
            assertTrue(run.out().contains("[rank " + rank + "] rank=" + rank + " incarnation=2 pid="),
                    "rank " + rank + " of incarnation 2 did not run: " + run.out());
        }
        assertEquals(1, server.logins(), "SSH connections for both incarnations");
        assertEquals(2, server.execs(), "exec channels: the probe and the one host agent");
        LauncherHarness.assertNoProcessLeft();
    }
}
