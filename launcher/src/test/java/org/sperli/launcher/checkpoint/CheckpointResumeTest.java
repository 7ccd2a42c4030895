package org.sperli.launcher.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sperli.launcher.LauncherHarness;
import org.sperli.launcher.SperliCommand;
import org.sperli.launcher.demo.JobJars;
import org.sperli.launcher.testjob.CheckpointTestJob;

/**
 * Through the real {@code sperli run} with 2 local ranks: a rank killed with SIGKILL after a checkpoint, the restart as
 * incarnation 2 resumes from the COMMIT, and the job prints the same result as an uninterrupted run; afterwards
 * {@code inspect-checkpoint} shows the epoch a resume would pick.
 *
 * <p>Both ranks run on this host and share one checkpoint directory. That is fine: rank files and buddy copies have
 * distinct names, and the COMMIT each rank keeps is the same signed file. On a real cluster each host has its own.
 */
class CheckpointResumeTest {
    private static final Pattern RANK_1_FIRST =
            Pattern.compile("\\[rank 1] rank=1 incarnation=1 pid=(\\d+) from=fresh step 0");
    private static final Pattern FIRST_CHECKPOINT = Pattern.compile("\\[rank 0] checkpoint epoch=1 step=10");
    private static final Pattern RESULT = Pattern.compile("\\[rank 0] result=(\\S+)");
    private static final Pattern RESUMED =
            Pattern.compile("\\[rank 0] rank=0 incarnation=2 pid=\\d+ from=epoch (\\d+) step (\\d+)");

    @TempDir
    Path dir;

    @AfterEach
    void cleanUp() {
        LauncherHarness.killDescendants();
    }

    @Test
    void rankKilledAfterACheckpointResumesAtIncarnationTwoWithTheUninterruptedResult() throws IOException {
        Path jar = JobJars.write(dir.resolve("checkpoint-job.jar"), CheckpointTestJob.class,
                CheckpointTestJob.State.class);
        Path plainDir = dir.resolve("plain");
        Path killedDir = dir.resolve("killed");

        LauncherHarness.Run plain = LauncherHarness.run(LauncherHarness.environment(Map.of()), "run",
                "--checkpoint-dir", plainDir.toString(), "--hosts", hosts(), jar.toString(), "60", "10", "0");
        assertEquals(0, plain.exitCode(), plain.err());
        String expected = result(plain.out());

        AtomicLong rank1Pid = new AtomicLong(-1);
        AtomicLong killed = new AtomicLong(-1);
        LauncherHarness.Run run = LauncherHarness.run(LauncherHarness.environment(Map.of()), line -> {
            Matcher first = RANK_1_FIRST.matcher(line);
            if (first.matches()) {
                rank1Pid.set(Long.parseLong(first.group(1)));
            } else if (FIRST_CHECKPOINT.matcher(line).matches() && rank1Pid.get() > 0 && killed.get() < 0) {
                // The COMMIT of epoch 1 is on disk before rank 0 prints this. SIGKILL: no BYE, no ABORT.
                ProcessHandle.of(rank1Pid.get()).ifPresent(ProcessHandle::destroyForcibly);
                killed.set(rank1Pid.get());
            }
        }, command -> { }, "run", "--restart-max", "1", "--checkpoint-dir", killedDir.toString(), "--hosts", hosts(),
                jar.toString(), "60", "10", "100");

        assertTrue(killed.get() > 0, "rank 1 was never killed: " + run.out());
        assertEquals(0, run.exitCode(), run.out() + run.err());
        assertTrue(run.err().contains("rank 1 (local pid " + killed.get() + ") was killed by signal 9"), run.err());
        assertTrue(run.err().contains("restarting the job as incarnation 2 (restart 1 of 1)"), run.err());
        Matcher resumed = RESUMED.matcher(run.out());
        assertTrue(resumed.find(), "incarnation 2 did not resume: " + run.out());
        long epoch = Long.parseLong(resumed.group(1));
        assertTrue(epoch >= 1, run.out());
        assertEquals(10 * epoch, Long.parseLong(resumed.group(2)), "a resumed epoch holds the step it was taken at");
        assertEquals(expected, result(run.out()), "the resumed run's result");
        LauncherHarness.assertNoProcessLeft();

        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int inspected = SperliCommand.commandLine(new PrintWriter(out, true), new PrintWriter(err, true),
                LauncherHarness.environment(Map.of())).execute("inspect-checkpoint", killedDir.toString());
        assertEquals(0, inspected, out + "\n" + err);
        assertTrue(out.toString().contains("verdict: RESUMABLE, epoch "), out.toString());
        assertTrue(out.toString().contains("=> RESUME  picked: every rank loads"), out.toString());
    }

    private static String result(String out) {
        Matcher m = RESULT.matcher(out);
        assertTrue(m.find(), "no result line: " + out);
        return m.group(1);
    }

    private static String hosts() throws IOException {
        List<Integer> ports = LauncherHarness.freePorts(2);
        return LauncherHarness.hosts(ports, "localhost");
    }
}
