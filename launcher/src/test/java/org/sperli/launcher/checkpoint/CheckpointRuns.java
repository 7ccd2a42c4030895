package org.sperli.launcher.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.sperli.launcher.LauncherHarness;
import org.sperli.launcher.demo.JobJars;
import org.sperli.launcher.testjob.CheckpointTestJob;
import org.sperli.launcher.testjob.CrashAtCheckpointStep;

/**
 * Runs {@link CheckpointTestJob} through the real {@code sperli run} on local ranks: uninterrupted, or with one rank
 * killed after rank 0 printed a given checkpoint and the launcher's restart checked. Arguments of the job: steps,
 * checkpoint every, sleep ms per step, optionally a crash (rank, step, epoch).
 *
 * <p>Local ranks share one checkpoint directory. That is fine: rank files and buddy copies have distinct names, and the
 * COMMIT each rank keeps is the same signed file. On a real cluster each host has its own.
 */
final class CheckpointRuns {
    static final Pattern CHECKPOINT = Pattern.compile("\\[rank 0] checkpoint epoch=(\\d+) step=\\d+");
    private static final Pattern RESULT = Pattern.compile("\\[rank 0] result=(\\S+)");
    private static final Pattern RESUMED =
            Pattern.compile("\\[rank 0] rank=0 incarnation=2 pid=\\d+ from=epoch (\\d+) step (\\d+)");
    /** Uninterrupted results by ranks and steps: the same in every test class of a run. */
    private static final Map<String, String> RESULTS = new HashMap<>();

    private final Path dir;

    CheckpointRuns(Path dir) {
        this.dir = dir;
    }

    /** A run with a rank killed: what it printed, and the epoch after whose checkpoint the rank was killed. */
    record Killed(LauncherHarness.Run run, long epoch) {
    }

    /** A restarted run: what it printed, the epoch incarnation 2 resumed, and the job's result line. */
    record Resumed(LauncherHarness.Run run, long epoch, String result) {
    }

    /** The checkpoint job's jar. */
    Path jar() throws IOException {
        Path jar = dir.resolve("checkpoint-job.jar");
        if (!Files.exists(jar)) {
            JobJars.write(jar, CheckpointTestJob.class, CheckpointTestJob.State.class, CrashAtCheckpointStep.class);
        }
        return jar;
    }

    /**
     * The result of the job over {@code steps} steps without a kill, a sleep or a checkpoint (the state does not
     * depend on them).
     */
    String uninterruptedResult(int ranks, int steps) throws IOException {
        String key = ranks + "/" + steps;
        synchronized (RESULTS) {
            String known = RESULTS.get(key);
            if (known != null) {
                return known;
            }
        }
        String s = Integer.toString(steps);
        LauncherHarness.Run plain = LauncherHarness.run(LauncherHarness.environment(Map.of()), "run",
                "--checkpoint-dir", dir.resolve("plain").toString(), "--hosts", hosts(ranks), jar().toString(), s, s,
                "0");
        assertEquals(0, plain.exitCode(), plain.err());
        String result = result(plain.out());
        synchronized (RESULTS) {
            RESULTS.put(key, result);
        }
        return result;
    }

    /**
     * Runs the job with {@code --restart-max 1} and the arguments given (which make one rank crash itself), and checks
     * that the launcher restarted it as incarnation 2 which resumed and completed.
     */
    Resumed crashAndResume(Path checkpointDir, int ranks, String... jobArgs) throws IOException {
        LauncherHarness.Run run = LauncherHarness.run(LauncherHarness.environment(Map.of()),
                runArgs(checkpointDir, ranks, jobArgs));
        assertEquals(0, run.exitCode(), run.out() + run.err());
        assertTrue(run.err().contains("restarting the job as incarnation 2 (restart 1 of 1)"), run.err());
        return resumed(run, jobArgs);
    }

    /**
     * Runs the job with {@code --restart-max 1}, SIGKILLs rank {@code victim} once rank 0 printed a checkpoint of
     * epoch {@code killAtEpoch} or later (its COMMIT is on disk) and the victim its pid, then calls {@code afterKill}
     * with that epoch while the launcher waits for this output line, before it restarts. Returns the run as it ended:
     * {@code afterKill} may have broken the checkpoint so that the restart fails.
     */
    Killed kill(Path checkpointDir, int ranks, int victim, long killAtEpoch, LongConsumer afterKill,
                             String... jobArgs) throws IOException {
        Pattern victimFirst = Pattern.compile("\\[rank " + victim + "] rank=" + victim
                + " incarnation=1 pid=(\\d+) from=fresh step 0");
        AtomicLong victimPid = new AtomicLong(-1);
        AtomicLong killed = new AtomicLong(-1);
        AtomicLong killedAt = new AtomicLong(-1);
        AtomicReference<Throwable> afterKillFailed = new AtomicReference<>();
        LauncherHarness.Run run = LauncherHarness.run(LauncherHarness.environment(Map.of()), line -> {
            Matcher first = victimFirst.matcher(line);
            Matcher checkpoint = CHECKPOINT.matcher(line);
            if (first.matches()) {
                victimPid.set(Long.parseLong(first.group(1)));
            } else if (checkpoint.matches() && Long.parseLong(checkpoint.group(1)) >= killAtEpoch
                    && victimPid.get() > 0 && killed.get() < 0) {
                // The COMMIT of this epoch is on disk before rank 0 prints this. SIGKILL: no BYE, no ABORT.
                ProcessHandle.of(victimPid.get()).ifPresent(ProcessHandle::destroyForcibly);
                killed.set(victimPid.get());
                killedAt.set(Long.parseLong(checkpoint.group(1)));
                try {
                    afterKill.accept(killedAt.get());
                } catch (RuntimeException | Error e) {
                    afterKillFailed.set(e); // not thrown into the launcher's output
                }
            }
        }, command -> { }, runArgs(checkpointDir, ranks, jobArgs));
        if (afterKillFailed.get() != null) {
            throw new AssertionError("after the kill: " + afterKillFailed.get(), afterKillFailed.get());
        }
        assertTrue(killed.get() > 0, "rank " + victim + " was never killed: " + run.out());
        assertTrue(run.err().contains("rank " + victim + " (local pid " + killed.get() + ") was killed by signal 9"),
                run.err());
        assertTrue(run.err().contains("restarting the job as incarnation 2 (restart 1 of 1)"), run.err());
        LauncherHarness.assertNoProcessLeft();
        return new Killed(run, killedAt.get());
    }

    /** As {@link #kill}, and checks that incarnation 2 resumed and completed. */
    Resumed killAndResume(Path checkpointDir, int ranks, int victim, long killAtEpoch, LongConsumer afterKill,
                          String... jobArgs) throws IOException {
        LauncherHarness.Run run = kill(checkpointDir, ranks, victim, killAtEpoch, afterKill, jobArgs).run();
        assertEquals(0, run.exitCode(), run.out() + run.err());
        return resumed(run, jobArgs);
    }

    private Resumed resumed(LauncherHarness.Run run, String... jobArgs) {
        Matcher resumed = RESUMED.matcher(run.out());
        assertTrue(resumed.find(), "incarnation 2 did not resume: " + run.out() + run.err());
        long epoch = Long.parseLong(resumed.group(1));
        assertTrue(epoch >= 1, run.out());
        long every = Long.parseLong(jobArgs[1]);
        assertEquals(every * epoch, Long.parseLong(resumed.group(2)), "a resumed epoch holds the step it was taken at");
        LauncherHarness.assertNoProcessLeft();
        return new Resumed(run, epoch, result(run.out()));
    }

    private String[] runArgs(Path checkpointDir, int ranks, String... jobArgs) throws IOException {
        List<String> args = new ArrayList<>(List.of("run", "--restart-max", "1", "--checkpoint-dir",
                checkpointDir.toString(), "--hosts", hosts(ranks), jar().toString()));
        args.addAll(List.of(jobArgs));
        return args.toArray(String[]::new);
    }

    /** The directory of {@code epoch} under the only job directory in {@code checkpointDir}. */
    static Path epochDir(Path checkpointDir, long epoch) {
        try (Stream<Path> jobs = Files.list(checkpointDir)) {
            List<Path> dirs = jobs.filter(Files::isDirectory).toList();
            assertEquals(1, dirs.size(), dirs.toString());
            return dirs.get(0).resolve(Long.toString(epoch));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Flips the bits of the last byte of {@code file}. */
    static void flipLastByte(Path file) {
        try {
            byte[] bytes = Files.readAllBytes(file);
            bytes[bytes.length - 1] ^= (byte) 0xff;
            Files.write(file, bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String result(String out) {
        Matcher m = RESULT.matcher(out);
        assertTrue(m.find(), "no result line: " + out);
        return m.group(1);
    }

    static String hosts(int ranks) throws IOException {
        return LauncherHarness.hosts(LauncherHarness.freePorts(ranks), "localhost");
    }
}
