package org.sperli.rankd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sperli.jobspec.RankTmpdir;

/** Which directory a rank takes as {@code java.io.tmpdir}, given its environment (this JVM's is not touched). */
class GivenTmpdirTest {
    @TempDir
    Path dir;

    private final Properties system = new Properties();

    GivenTmpdirTest() {
        system.setProperty(GivenTmpdir.PROPERTY, "/jvm/tmp");
    }

    @Test
    void anExistingDirectoryBecomesTheTemporaryDirectory() {
        assertNull(GivenTmpdir.apply(Map.of(RankTmpdir.VARIABLE, dir.toString()), system));
        assertEquals(dir.toString(), system.getProperty(GivenTmpdir.PROPERTY));
    }

    @Test
    void withoutTheVariableOrWithAnEmptyOneTheJvmsOwnStaysQuietly() {
        assertNull(GivenTmpdir.apply(Map.of(), system));
        assertNull(GivenTmpdir.apply(Map.of(RankTmpdir.VARIABLE, ""), system));
        assertEquals("/jvm/tmp", system.getProperty(GivenTmpdir.PROPERTY));
    }

    @Test
    void aNameThatIsNoDirectoryLeavesTheJvmsOwnAndSaysSo() throws IOException {
        Path file = Files.writeString(dir.resolve("file"), "x");
        assertEquals("warning: SPERLI_RANK_TMPDIR names no directory (" + file + "); the rank uses /jvm/tmp",
                GivenTmpdir.apply(Map.of(RankTmpdir.VARIABLE, file.toString()), system));
        assertEquals("/jvm/tmp", system.getProperty(GivenTmpdir.PROPERTY));
    }
}
