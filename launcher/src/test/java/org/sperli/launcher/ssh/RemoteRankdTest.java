package org.sperli.launcher.ssh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
    void theProbeListsTheHostsClassDataArchivesApartFromTheSums() {
        RemoteRankd.Probe probe = RemoteRankd.Probe.parse("java java\nopenjdk version \"17.0.15\" 2025-04-15\n"
                + "ab12  .cache/sperli/lib/ab12.jar\ncds-jdk\ncds .cache/sperli/cds/rankd-00ff.jsa\n");
        assertEquals(Set.of(".cache/sperli/cds/rankd-00ff.jsa"), probe.archives());
        assertTrue(probe.jdkArchives());
        assertFalse(RemoteRankd.Probe.parse("java java\nopenjdk version \"25\" 2025-09-16\n").jdkArchives());
        assertEquals(Map.of(".cache/sperli/lib/ab12.jar", "ab12"), probe.sums());
    }

    @Test
    void fromJava25RanksMapTheArchiveOfTheirJavaAndJarsOrRecordForItWhenTheHostHasNone() {
        List<RankdClasspath.Jar> jars = List.of(new RankdClasspath.Jar(Path.of("a.jar"), 1, "ab12"));
        StagedArchive archive = StagedArchive.of("java", "openjdk version \"17.0.15\" 2025-04-15", jars);
        String base = archive.path().substring(0, archive.path().length() - ".jsa".length());

        assertTrue(archive.path().matches("\\.cache/sperli/cds/rankd-[0-9a-f]{24}\\.jsa"), archive.path());
        assertEquals("-XX:SharedArchiveFile=" + archive.path() + " -Xlog:cds=off -Xlog:cds+dynamic=off",
                archive.options(25, true, Set.of(archive.path())));
        assertEquals("-XX:+RecordDynamicDumpInfo -Dsperli.rankd.cds=" + base + " -Xlog:cds=off -Xlog:cds+dynamic=off",
                archive.options(25, true, Set.of(".cache/sperli/cds/rankd-0000.jsa")));
        assertEquals("", archive.options(17, true, Set.of(archive.path())), "no archive before Java 25");
        assertEquals("", archive.options(25, false, Set.of()),
                "a JVM recording for a dynamic archive does not start without the JDK's own");
        assertNotEquals(archive.path(), StagedArchive.of("java", "openjdk version \"21.0.4\" 2024-07-16", jars).path(),
                "another JDK must not map this archive");
        assertNotEquals(archive.path(), StagedArchive.of("java", "openjdk version \"17.0.15\" 2025-04-15",
                List.of(new RankdClasspath.Jar(Path.of("a.jar"), 1, "cd34"))).path(), "nor other jars");
    }

    @Test
    void whatAHostPrintsIsQuotedWithoutControlCharactersAndAtMost200Characters() {
        String line = RemoteRankd.Probe.parse("java java\n\u001b[31mred\u0007" + "x".repeat(500) + "\n")
                .javaVersionLine();
        assertEquals("[31mred" + "x".repeat(193) + "...", line);
    }
}
