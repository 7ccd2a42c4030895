package org.sperli.rankd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code --checkpoint-dir DIR}: an option before the jar like the others, and a job argument after it. */
class RankdCheckpointDirArgumentsTest {
    @Test
    void checkpointDirIsTakenBeforeTheJarInEitherSpelling() {
        assertEquals(Path.of("/ck"), RankdArguments.parse(new String[] {"--checkpoint-dir", "/ck", "j.jar"})
                .checkpointDirOrNull());
        assertEquals(Path.of("/ck"), RankdArguments.parse(new String[] {"--checkpoint-dir=/ck", "j.jar"})
                .checkpointDirOrNull());
    }

    @Test
    void afterTheJarItBelongsToTheJob() {
        RankdArguments a = RankdArguments.parse(new String[] {"j.jar", "--checkpoint-dir", "/ck"});
        assertNull(a.checkpointDirOrNull());
        assertEquals(List.of("--checkpoint-dir", "/ck"), a.jobArgs());
    }

    @Test
    void emptyDirectoryIsRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> RankdArguments.parse(new String[] {"--checkpoint-dir=", "j.jar"}));
    }

    @Test
    void checkpointWaitIsWholeSecondsWithinItsRange() {
        assertEquals(Duration.ofSeconds(30), RankdArguments.parse(new String[] {"--checkpoint-wait", "30", "j.jar"})
                .checkpointWaitOrNull());
        assertNull(RankdArguments.parse(new String[] {"j.jar"}).checkpointWaitOrNull());
        for (String bad : new String[] {"0", "-5", "1.5", "x", "604801"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> RankdArguments.parse(new String[] {"--checkpoint-wait", bad, "j.jar"}));
            assertTrue(e.getMessage().startsWith("--checkpoint-wait " + bad), e.getMessage());
        }
    }

    @Test
    void usageNamesTheOption() {
        assertTrue(RankdArguments.USAGE.contains("[--checkpoint-dir DIR]"));
    }
}
