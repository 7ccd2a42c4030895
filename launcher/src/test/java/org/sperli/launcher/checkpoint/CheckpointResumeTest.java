package org.sperli.launcher.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sperli.launcher.LauncherHarness;
import org.sperli.launcher.command.SperliCommand;

/**
 * Through the real {@code sperli run} with 2 local ranks: a rank killed with SIGKILL after a checkpoint, the restart as
 * incarnation 2 resumes from the COMMIT, and the job prints the same result as an uninterrupted run; afterwards
 * {@code inspect-checkpoint} shows the epoch a resume would pick. The same flow with 1 rank and with 4, and with the
 * killed rank's file of the committed epoch deleted before the restart (it fetches the file from its buddy).
 * {@link CheckpointFaultsTest} breaks the checkpoint in the other ways the protocol names.
 */
class CheckpointResumeTest {
    @TempDir
    Path dir;

    private CheckpointRuns runs;

    @BeforeEach
    void setUp() {
        runs = new CheckpointRuns(dir);
    }

    @AfterEach
    void cleanUp() {
        LauncherHarness.killDescendants();
    }

    @Test
    void rankKilledAfterACheckpointResumesAtIncarnationTwoWithTheUninterruptedResult() throws IOException {
        Path killedDir = dir.resolve("killed");
        String expected = runs.uninterruptedResult(2, 60);

        CheckpointRuns.Resumed resumed = runs.killAndResume(killedDir, 2, 1, 1, epoch -> { }, "60", "10", "100");

        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int inspected = SperliCommand.commandLine(new PrintWriter(out, true), new PrintWriter(err, true),
                LauncherHarness.environment(Map.of())).execute("inspect-checkpoint", killedDir.toString());
        assertEquals(0, inspected, out + "\n" + err);
        assertTrue(out.toString().contains("verdict: RESUMABLE, epoch "), out.toString());
        assertTrue(out.toString().contains("=> RESUME  picked: every rank loads"), out.toString());
        assertEquals(expected, resumed.result(), "the resumed run's result");
    }

    /** The same flow with one rank (no buddy: the rank reloads its own file) and with four (a middle rank killed). */
    @ParameterizedTest(name = "{0} ranks, rank {1} killed")
    @CsvSource({"1, 0", "4, 2"})
    void rankKilledAfterACheckpointResumesWithTheUninterruptedResult(int ranks, int victim) throws IOException {
        String expected = runs.uninterruptedResult(ranks, 20);

        CheckpointRuns.Resumed resumed = runs.killAndResume(dir.resolve("killed"), ranks, victim, 1, epoch -> { },
                "20", "10", "100");

        assertEquals(expected, resumed.result(), "the resumed run's result");
    }

    /**
     * Rank 1 is killed right after the COMMIT of an epoch and its own file of that epoch is deleted before the launcher
     * restarts: incarnation 2 resumes from that epoch all the same, rank 1 fetching its file from its buddy, rank 0.
     */
    @Test
    void rankFileDeletedAfterTheKillIsFetchedFromTheBuddyAndTheRunEndsWithTheUninterruptedResult() throws IOException {
        Path killedDir = dir.resolve("killed");
        String expected = runs.uninterruptedResult(2, 20);
        AtomicReference<Path> deleted = new AtomicReference<>();
        AtomicReference<Long> deletedEpoch = new AtomicReference<>();

        CheckpointRuns.Resumed resumed = runs.killAndResume(killedDir, 2, 1, 1, committed -> {
            // Still in the output callback, right after the SIGKILL: the launcher has not restarted yet, and no later
            // epoch can be committed without rank 1.
            Path epochDir = CheckpointRuns.epochDir(killedDir, committed);
            try {
                assertTrue(Files.exists(epochDir.resolve("COMMIT")), epochDir.toString());
                assertTrue(Files.exists(epochDir.resolve("rank-1.ckpt.buddy")), epochDir.toString());
                Files.delete(epochDir.resolve("rank-1.ckpt"));
                deleted.set(epochDir.resolve("rank-1.ckpt"));
                deletedEpoch.set(committed);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, "20", "10", "100");

        assertTrue(deleted.get() != null, "rank-1.ckpt was not deleted");
        assertEquals(deletedEpoch.get(), resumed.epoch(), "incarnation 2 resumed the epoch whose rank file was deleted");
        String all = resumed.run().out() + resumed.run().err();
        assertTrue(all.contains("resume: rank 1: its rank file of epoch " + resumed.epoch() + " is refused"), all);
        assertTrue(all.contains("fetching it from rank 0"), all);
        assertEquals(expected, resumed.result(), "the resumed run's result");
    }
}
