package org.sperli.launcher.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code --checkpoint-dir} reaches every rank, local and SSH, as the same absolute path, before the jar. */
class RankCommandCheckpointDirTest {
    private static final JobJar JAR = new JobJar(Path.of("/jobs/job.jar"), "ab", 1, "x.Job");

    @Test
    void localRanksGetTheAbsoluteDirectoryBeforeTheJar() {
        RankCommand command = RankCommand.of("rankd", Map.of()).withCheckpointDir(Path.of("ck"));
        String absolute = Path.of("ck").toAbsolutePath().toString();

        assertEquals(List.of("rankd", "--jar-sha256", "ab", "--checkpoint-dir", absolute, "/jobs/job.jar", "arg"),
                command.localArgv(0, null, JAR, List.of("arg")));
    }

    @Test
    void sshRanksGetTheSameDirectoryQuotedForTheRemoteShell() {
        RankCommand command = RankCommand.of("sperli-rankd", Map.of()).withCheckpointDir(Path.of("/srv/ck points"));

        assertEquals("sperli-rankd --jar-sha256 ab --checkpoint-dir '/srv/ck points' .cache/j.jar 'x y'",
                command.remoteLine("ab", ".cache/j.jar", List.of("x y")));
    }

    @Test
    void withoutTheOptionNothingIsAdded() {
        RankCommand command = RankCommand.of("rankd", Map.of()).withCheckpointDir(null);

        assertFalse(command.localArgv(0, null, JAR, List.of()).contains("--checkpoint-dir"));
        assertFalse(command.remoteLine("ab", "j.jar", List.of()).contains("--checkpoint-dir"));
    }

    @Test
    void aCheckpointWaitGoesWithTheDirectoryAndOnlyWhenGiven() {
        RankCommand command = RankCommand.of("rankd", Map.of()).withCheckpointDir(Path.of("/ck"), 900L);

        assertEquals(List.of("rankd", "--jar-sha256", "ab", "--checkpoint-dir", "/ck", "--checkpoint-wait", "900",
                "/jobs/job.jar"), command.localArgv(0, null, JAR, List.of()));
        assertEquals("rankd --jar-sha256 ab --checkpoint-dir /ck --checkpoint-wait 900 j.jar",
                command.remoteLine("ab", "j.jar", List.of()));
        assertFalse(RankCommand.of("rankd", Map.of()).withCheckpointDir(Path.of("/ck"), null)
                .localArgv(0, null, JAR, List.of()).contains("--checkpoint-wait"));
        assertFalse(RankCommand.of("rankd", Map.of()).withCheckpointDir(null, 900L)
                .localArgv(0, null, JAR, List.of()).contains("--checkpoint-wait"), "no wait without a directory");
    }
}
