package org.sperli.launcher.ssh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
 * 32 ranks on one host whose SSH server is Debian's OpenSSH with its default limits (10 sessions per connection, which
 * a launcher with a channel per rank hit at its 11th rank with "open failed"): the launcher logs in once, stages the
 * rank daemon, and starts one host agent, which starts every rank; a checkpointed job whose rank 17 dies completes
 * after a restart over the same login.
 */
class RealSshdTest {

    @TempDir
    Path dir;
    private OpenSshd sshd;
    private HomeCache cache;

    @BeforeEach
    void startSshd() throws Exception {
        String why = OpenSshd.unavailable().orElse(null);
        assumeTrue(why == null, "skipped: " + why);
        cache = HomeCache.snapshot();
        sshd = OpenSshd.start(Files.createDirectory(dir.resolve("sshd")), dir.resolve("ssh"),
                System.getProperty("user.name"));
    }

    @AfterEach
    void stopSshd() throws Exception {
        if (sshd == null) {
            return;
        }
        sshd.close();
        LauncherHarness.killDescendants();
        cache.removeAdded();
    }

    @Test
    void thirtyTwoRanksOnAStockOpenSshServerCompleteACheckpointedRestartOnOneLogin() throws Exception {
        Path jar = dir.resolve("checkpoint-job.jar");
        JobJars.write(jar, CheckpointTestJob.class, CheckpointTestJob.State.class, CrashAtCheckpointStep.class);
        int base = LauncherHarness.freePortRange(32);

        // Rank 17 ends itself at BEFORE_ACK of checkpoint 2; incarnation 2 resumes epoch 1. 32 rank JVMs take about a
        // minute per incarnation on two cores.
        LauncherHarness.Run run = LauncherHarness.run(Duration.ofMinutes(6), LauncherHarness.environment(Map.of(
                RankdClasspath.VARIABLE, StagedRankdTest.rankdAllJar().toString())), "run", "--ssh",
                "--ssh-dir", dir.resolve("ssh").toString(), "--remote-java",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "--restart-max", "1",
                "--checkpoint-dir", dir.resolve("checkpoints").toString(), "--port-base", Integer.toString(base),
                "--hosts", "localhost/32", jar.toString(), "30", "10", "0", "17", "BEFORE_ACK", "2");

        assertEquals(0, run.exitCode(), run.out() + run.err() + "\nsshd:\n" + sshd.log());
        assertTrue(run.out().contains("[rank 17] crashing at BEFORE_ACK of epoch 2"), run.out() + run.err());
        assertTrue(run.err().contains("restarting the job as incarnation 2 (restart 1 of 1)"), run.err());
        for (int rank = 0; rank < 32; rank++) {
            assertTrue(run.out().contains("[rank " + rank + "] rank=" + rank + " incarnation=2 pid="),
                    "rank " + rank + " of incarnation 2 did not run: " + run.out());
        }
        assertTrue(run.out().contains("[rank 0] rank=0 incarnation=2 pid=") && run.out().contains("from=epoch 1"),
                "incarnation 2 resumed epoch 1: " + run.out());
        assertEquals(1, sshd.logins(), "logins for both incarnations:\n" + sshd.log());
        sshd.assertNothingLeftButItself();
    }
}
