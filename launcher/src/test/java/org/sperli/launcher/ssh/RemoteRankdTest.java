package org.sperli.launcher.ssh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the launcher makes of the one remote command that asks a host for its rank command and its Java. */
class RemoteRankdTest {
    @Test
    void aHostWithTheRankCommandNeedsNoJavaCheck() {
        RemoteRankd.Probe probe = RemoteRankd.Probe.parse("rankd /usr/local/bin/sperli-rankd\n");
        assertEquals("/usr/local/bin/sperli-rankd", probe.rankdPath());
        assertNull(probe.java());
    }

    @Test
    void aHostWithoutItNamesItsJavaAndTheFirstVersionLine() {
        RemoteRankd.Probe probe = RemoteRankd.Probe.parse(
                "java /opt/jdk/bin/java\nopenjdk version \"21.0.4\" 2024-07-16\nmore\n");
        assertNull(probe.rankdPath());
        assertEquals("/opt/jdk/bin/java", probe.java());
        assertEquals("openjdk version \"21.0.4\" 2024-07-16", probe.javaVersionLine());
        assertEquals("(no output)", RemoteRankd.Probe.parse("java java\n").javaVersionLine());
    }

    @Test
    void theSameCommandSumsTheCachedFilesAfterTheVersionLine() {
        RemoteRankd.Probe probe = RemoteRankd.Probe.parse("java java\nopenjdk version \"17.0.15\" 2025-04-15\n"
                + "ab12  .cache/sperli/lib/ab12.jar\n- .cache/sperli/lib/cd34.jar\n");
        assertEquals(Map.of(".cache/sperli/lib/ab12.jar", "ab12", ".cache/sperli/lib/cd34.jar", RemoteRankd.NO_SUM),
                probe.sums());
        assertEquals(Map.of(), RemoteRankd.Probe.parse("rankd /usr/bin/sperli-rankd\n").sums());
    }

    @Test
    void whatAHostPrintsIsQuotedWithoutControlCharactersAndAtMost200Characters() {
        String line = RemoteRankd.Probe.parse("java java\n\u001b[31mred\u0007" + "x".repeat(500) + "\n")
                .javaVersionLine();
        assertEquals("[31mred" + "x".repeat(193) + "...", line);
    }
}
