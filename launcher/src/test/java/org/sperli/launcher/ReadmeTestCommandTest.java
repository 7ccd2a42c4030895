package org.sperli.launcher;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The README names the project's test command, and it is the one CI runs: {@code .ci/run} ends by running
 * {@code scripts/test.sh}, and the README says so.
 */
class ReadmeTestCommandTest {
    private static final String TEST_COMMAND = "scripts/test.sh";

    @Test
    void readmeNamesTheTestCommandThatCiRuns() throws IOException {
        String ci = Files.readString(Path.of("..", ".ci", "run"), StandardCharsets.UTF_8);
        assertTrue(ci.lines().anyMatch(line -> line.strip().equals(TEST_COMMAND)),
                ".ci/run no longer runs " + TEST_COMMAND);
        String readme = Files.readString(Path.of("..", "README.md"), StandardCharsets.UTF_8);
        assertTrue(readme.contains("`" + TEST_COMMAND + "` is the project's test command"),
                "the README does not name " + TEST_COMMAND + " as the test command");
        assertTrue(readme.contains("`.ci/run`"), "the README does not say that CI runs it through .ci/run");
        assertTrue(Files.isExecutable(Path.of("..", TEST_COMMAND)), TEST_COMMAND + " is not executable");
    }
}
