package org.sperli.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A checkpoint directory is judged before a job starts, in words an operator reads. */
class CheckpointDirectoryTest {
    @TempDir
    Path dir;

    @Test
    void anExistingDirectoryAndOneThatCanBeMadeAreFine() {
        assertNull(CheckpointDirectory.problem(dir));
        assertNull(CheckpointDirectory.problem(dir.resolve("a/b/c")));
    }

    @Test
    void aFileIsNamedAsSuchAndNothingIsMade() throws IOException {
        Path file = Files.writeString(dir.resolve("f"), "x");
        assertEquals("it is a file, not a directory", CheckpointDirectory.problem(file));
        assertEquals(file + " is a file, so the directory cannot be made under it",
                CheckpointDirectory.problem(file.resolve("job")));
        assertEquals(1, Files.list(dir).count());
    }
}
