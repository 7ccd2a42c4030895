package org.sperli.launcher.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code sperli run --collectives SHAPE} reaches every rank, local and SSH, before the jar, and only when given. */
class RankCommandCollectivesTest {
    private static final JobJar JAR = new JobJar(Path.of("/jobs/job.jar"), "ab", 1, "x.Job");

    @Test
    void localAndSshRanksGetTheShapeBeforeTheJar() {
        RankCommand command = RankCommand.of("rankd", Map.of()).withCollectives("star");

        assertEquals(List.of("rankd", "--jar-sha256", "ab", "--collectives", "star", "/jobs/job.jar"),
                command.localArgv(0, null, JAR, List.of()));
        assertEquals("rankd --jar-sha256 ab --collectives star j.jar", command.remoteLine("ab", "j.jar", List.of()));
    }

    @Test
    void withoutTheOptionNothingIsAdded() {
        RankCommand command = RankCommand.of("rankd", Map.of()).withCollectives(null);

        assertFalse(command.localArgv(0, null, JAR, List.of()).contains("--collectives"));
        assertFalse(command.remoteLine("ab", "j.jar", List.of()).contains("--collectives"));
    }
}
