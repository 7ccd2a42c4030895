package org.sperli.launcher.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sperli.launcher.LauncherHarness;
import org.sperli.launcher.SperliCommand;
import org.sperli.launcher.demo.JobJars;
import org.sperli.launcher.testjob.CheckpointTestJob;

/**
 * Through the real {@code sperli run} with 2 local ranks: a rank killed with SIGKILL after a checkpoint, the restart as
 * incarnation 2 resumes from the COMMIT, and the job prints the same result as an uninterrupted run; afterwards
 * {@code inspect-checkpoint} shows the epoch a resume would pick. The same flow with 1 rank and with 4, and with the
 * killed rank's file of the committed epoch deleted before the restart (it fetches the file from its buddy).
 *
 * <p>Both ranks run on this host and share one checkpoint directory. That is fine: rank files and buddy copies have
 * distinct names, and the COMMIT each rank keeps is the same signed file. On a real cluster each host has its own.
 */
class CheckpointResumeTest {
    private static final Pattern CHECKPOINT = Pattern.compile("\\[rank 0] checkpoint epoch=(\\d+) step=\\d+");
    private static final Pattern RESULT = Pattern.compile("\\[rank 0] result=(\\S+)");
    private static final Pattern RESUMED =
            Pattern.compile("\\[rank 0] rank=0 incarnation=2 pid=\\d+ from=epoch (\\d+) step (\\d+)");

    @TempDir
    Path dir;

    /** The last run of {@link #killAndResume} and its result line. */
    private LauncherHarness.Run lastRun;
    private String lastResult;

    @AfterEach
    void cleanUp() {
        LauncherHarness.killDescendants();
    }

    @Test
    void rankKilledAfterACheckpointResumesAtIncarnationTwoWithTheUninterruptedResult() throws IOException {
        Path jar = jar();
        Path killedDir = dir.resolve("killed");
        String expected = uninterruptedResult(jar, 2, "60");

        killAndResume(jar, killedDir, 2, 1, epoch -> { }, "60", "10", "100");

        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int inspected = SperliCommand.commandLine(new PrintWriter(out, true), new PrintWriter(err, true),
                LauncherHarness.environment(Map.of())).execute("inspect-checkpoint", killedDir.toString());
        assertEquals(0, inspected, out + "\n" + err);
        assertTrue(out.toString().contains("verdict: RESUMABLE, epoch "), out.toString());
        assertTrue(out.toString().contains("=> RESUME  picked: every rank loads"), out.toString());
        assertEquals(expected, lastResult, "the resumed run's result");
    }

    /** The same flow with one rank (no buddy: the rank reloads its own file) and with four (a middle rank killed). */
    @ParameterizedTest(name = "{0} ranks, rank {1} killed")
    @CsvSource({"1, 0", "4, 2"})
    void rankKilledAfterACheckpointResumesWithTheUninterruptedResult(int ranks, int victim) throws IOException {
        Path jar = jar();
        String expected = uninterruptedResult(jar, ranks, "20");

        killAndResume(jar, dir.resolve("killed"), ranks, victim, epoch -> { }, "20", "10", "100");

        assertEquals(expected, lastResult, "the resumed run's result");
    }

    /**
     * Rank 1 is killed right after the COMMIT of an epoch and its own file of that epoch is deleted before the launcher
     * restarts: incarnation 2 resumes from that epoch all the same, rank 1 fetching its file from its buddy, rank 0.
     */
    @Test
    void rankFileDeletedAfterTheKillIsFetchedFromTheBuddyAndTheRunEndsWithTheUninterruptedResult() throws IOException {
        Path jar = jar();
        Path killedDir = dir.resolve("killed");
        String expected = uninterruptedResult(jar, 2, "20");
        AtomicReference<Path> deleted = new AtomicReference<>();

        long epoch = killAndResume(jar, killedDir, 2, 1, committed -> {
            // Still in the output callback, right after the SIGKILL: the launcher has not restarted yet, and no later
            // epoch can be committed without rank 1.
            Path epochDir = epochDir(killedDir, committed);
            try {
                assertTrue(Files.exists(epochDir.resolve("COMMIT")), epochDir.toString());
                assertTrue(Files.exists(epochDir.resolve("rank-1.ckpt.buddy")), epochDir.toString());
                Files.delete(epochDir.resolve("rank-1.ckpt"));
                deleted.set(epochDir.resolve("rank-1.ckpt"));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, "20", "10", "100");

        assertTrue(deleted.get() != null, "rank-1.ckpt was not deleted");
        assertEquals(deleted.get(), epochDir(killedDir, epoch).resolve("rank-1.ckpt"),
                "incarnation 2 resumed from the epoch whose rank file was deleted");
        String all = lastRun.out() + lastRun.err();
        assertTrue(all.contains("resume: rank 1: its rank file of epoch " + epoch + " is refused"), all);
        assertTrue(all.contains("fetching it from rank 0"), all);
        assertEquals(expected, lastResult, "the resumed run's result");
    }

    private Path jar() throws IOException {
        return JobJars.write(dir.resolve("checkpoint-job.jar"), CheckpointTestJob.class,
                CheckpointTestJob.State.class);
    }

    /**
     * The result of the job run over {@code steps} steps without a kill, a sleep or a checkpoint (the state does not
     * depend on them; and local ranks sharing one directory would all write the same {@code COMMIT.tmp}).
     */
    private String uninterruptedResult(Path jar, int ranks, String steps) throws IOException {
        LauncherHarness.Run plain = LauncherHarness.run(LauncherHarness.environment(Map.of()), "run",
                "--checkpoint-dir", dir.resolve("plain").toString(), "--hosts", hosts(ranks), jar.toString(), steps,
                steps, "0");
        assertEquals(0, plain.exitCode(), plain.err());
        return result(plain.out());
    }

    /**
     * Runs the job with {@code --restart-max 1}, SIGKILLs rank {@code victim} once rank 0 printed a checkpoint (its
     * COMMIT is on disk), then calls {@code afterKill} with that epoch; checks the restart as incarnation 2 and its
     * resume, keeps the run and its result in {@link #lastRun} and {@link #lastResult}, and returns the resumed epoch.
     */
    private long killAndResume(Path jar, Path checkpointDir, int ranks, int victim, LongConsumer afterKill,
                               String... jobArgs) throws IOException {
        Pattern victimFirst = Pattern.compile("\\[rank " + victim + "] rank=" + victim
                + " incarnation=1 pid=(\\d+) from=fresh step 0");
        AtomicLong victimPid = new AtomicLong(-1);
        AtomicLong killed = new AtomicLong(-1);
        AtomicReference<Throwable> afterKillFailed = new AtomicReference<>();
        List<String> args = new ArrayList<>(List.of("run", "--restart-max", "1", "--checkpoint-dir",
                checkpointDir.toString(), "--hosts", hosts(ranks), jar.toString()));
        args.addAll(List.of(jobArgs));
        LauncherHarness.Run run = LauncherHarness.run(LauncherHarness.environment(Map.of()), line -> {
            Matcher first = victimFirst.matcher(line);
            Matcher checkpoint = CHECKPOINT.matcher(line);
            if (first.matches()) {
                victimPid.set(Long.parseLong(first.group(1)));
            } else if (checkpoint.matches() && victimPid.get() > 0 && killed.get() < 0) {
                // The COMMIT of this epoch is on disk before rank 0 prints this. SIGKILL: no BYE, no ABORT.
                ProcessHandle.of(victimPid.get()).ifPresent(ProcessHandle::destroyForcibly);
                killed.set(victimPid.get());
                try {
                    afterKill.accept(Long.parseLong(checkpoint.group(1)));
                } catch (RuntimeException | Error e) {
                    afterKillFailed.set(e); // not thrown into the launcher's output
                }
            }
        }, command -> { }, args.toArray(String[]::new));
        lastRun = run;
        if (afterKillFailed.get() != null) {
            throw new AssertionError("after the kill: " + afterKillFailed.get(), afterKillFailed.get());
        }

        assertTrue(killed.get() > 0, "rank " + victim + " was never killed: " + run.out());
        assertEquals(0, run.exitCode(), run.out() + run.err());
        assertTrue(run.err().contains("rank " + victim + " (local pid " + killed.get() + ") was killed by signal 9"),
                run.err());
        assertTrue(run.err().contains("restarting the job as incarnation 2 (restart 1 of 1)"), run.err());
        Matcher resumed = RESUMED.matcher(run.out());
        assertTrue(resumed.find(), "incarnation 2 did not resume: " + run.out());
        long epoch = Long.parseLong(resumed.group(1));
        assertTrue(epoch >= 1, run.out());
        assertEquals(10 * epoch, Long.parseLong(resumed.group(2)), "a resumed epoch holds the step it was taken at");
        lastResult = result(run.out());
        LauncherHarness.assertNoProcessLeft();
        return epoch;
    }

    /** The directory of {@code epoch} under the only job directory in {@code checkpointDir}. */
    private static Path epochDir(Path checkpointDir, long epoch) {
        try (Stream<Path> jobs = Files.list(checkpointDir)) {
            List<Path> dirs = jobs.filter(Files::isDirectory).toList();
            assertEquals(1, dirs.size(), dirs.toString());
            return dirs.get(0).resolve(Long.toString(epoch));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String result(String out) {
        Matcher m = RESULT.matcher(out);
        assertTrue(m.find(), "no result line: " + out);
        return m.group(1);
    }

    private static String hosts(int ranks) throws IOException {
        List<Integer> ports = LauncherHarness.freePorts(ranks);
        return LauncherHarness.hosts(ports, "localhost");
    }
}
