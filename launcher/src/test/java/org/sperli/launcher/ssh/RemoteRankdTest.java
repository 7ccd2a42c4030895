package org.sperli.launcher.ssh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.sperli.launcher.job.EphemeralPorts;
import org.sperli.launcher.job.EphemeralRange;
import org.sperli.launcher.job.PortSpan;

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
    void theProbesFirstLineSizesTheJobJarWhereTheHostHasACopy() {
        RemoteRankd.Probe probe = RemoteRankd.Probe.parse("sperli-size   12345\njava java\n"
                + "openjdk version \"17.0.15\" 2025-04-15\nab12  .cache/sperli/lib/ab12.jar\n");
        assertEquals(12345, probe.jobJarSize());
        assertEquals("java", probe.java());
        assertEquals("openjdk version \"17.0.15\" 2025-04-15", probe.javaVersionLine());
        assertEquals(Map.of(".cache/sperli/lib/ab12.jar", "ab12"), probe.sums());
        assertEquals(77, RemoteRankd.Probe.parse("sperli-size 77\nrankd /usr/bin/sperli-rankd\n").jobJarSize());
        assertEquals("/usr/bin/sperli-rankd", RemoteRankd.Probe.parse("sperli-size 77\nrankd /usr/bin/sperli-rankd\n")
                .rankdPath());
        assertEquals(-1, RemoteRankd.Probe.parse("java java\nopenjdk version \"17\"\n").jobJarSize());
        assertEquals(-1, RemoteRankd.Probe.parse("sperli-size wc: cannot read\njava java\n").jobJarSize());
    }

    @Test
    void theProbeListsTheHostsClassDataArchivesApartFromTheSums() {
        RemoteRankd.Probe probe = RemoteRankd.Probe.parse("java java\nopenjdk version \"17.0.15\" 2025-04-15\n"
                + "ab12  .cache/sperli/lib/ab12.jar\ncds-jdk\ncds-dir\ncds .cache/sperli/cds/rankd-00ff.jsa\n");
        assertEquals(new StagedArchive.Host(true, true, Set.of(".cache/sperli/cds/rankd-00ff.jsa")),
                probe.archives());
        assertEquals(Map.of(".cache/sperli/lib/ab12.jar", "ab12"), probe.sums());
        assertEquals(new StagedArchive.Host(false, false, Set.of()),
                RemoteRankd.Probe.parse("java java\nopenjdk version \"25\" 2025-09-16\n").archives());
    }

    @Test
    void theProbeSaysWhetherTheHostsKernelGivesHugePagesOnRequest() {
        String head = "java java\nopenjdk version \"17.0.15\" 2025-04-15\nab12  .cache/sperli/lib/ab12.jar\n";
        RemoteRankd.Probe madvise = RemoteRankd.Probe.parse(head + "sperli-thp always [madvise] never\n");
        assertTrue(madvise.hugePagesOnRequest());
        assertEquals(Map.of(".cache/sperli/lib/ab12.jar", "ab12"), madvise.sums());
        assertFalse(RemoteRankd.Probe.parse(head + "sperli-thp [always] madvise never\n").hugePagesOnRequest());
        assertFalse(RemoteRankd.Probe.parse(head + "sperli-thp always madvise [never]\n").hugePagesOnRequest());
        assertFalse(RemoteRankd.Probe.parse(head).hugePagesOnRequest());
        assertFalse(RemoteRankd.Probe.parse("rankd /usr/bin/sperli-rankd\n").hugePagesOnRequest());
    }

    @Test
    void ranksMapTheArchiveOfTheirJavaAndJarsOrRecordForItWhenTheHostHasNone() {
        List<RankdClasspath.Jar> jars = List.of(new RankdClasspath.Jar(Path.of("a.jar"), 1, "ab12"));
        StagedArchive archive = StagedArchive.of("java", "openjdk version \"17.0.15\" 2025-04-15", jars);
        String base = archive.path().substring(0, archive.path().length() - ".jsa".length());
        String quiet = " -Xlog:cds=off -Xlog:cds+dynamic=off";
        StagedArchive.Host has = new StagedArchive.Host(true, true, Set.of(archive.path()));
        StagedArchive.Host hasNot = new StagedArchive.Host(true, true, Set.of(".cache/sperli/cds/rankd-0000.jsa"));

        assertTrue(archive.path().matches("\\.cache/sperli/cds/rankd-[0-9a-f]{24}\\.jsa"), archive.path());
        assertEquals("-XX:SharedArchiveFile=" + archive.path() + quiet, archive.options(17, has));
        assertEquals("-XX:SharedArchiveFile=" + archive.path() + quiet, archive.options(25, has));
        assertEquals("-XX:DumpLoadedClassList=" + base + ".rank-$$.classlist -Dsperli.rankd.cds=" + base + quiet,
                archive.options(17, hasNot), "before Java 25 a class list for a static archive, named after the pid");
        assertEquals("-XX:+RecordDynamicDumpInfo -Dsperli.rankd.cds=" + base + quiet, archive.options(25, hasNot));
        assertEquals("", archive.options(25, new StagedArchive.Host(true, false, Set.of())),
                "a JVM recording for a dynamic archive does not start without the JDK's own");
        assertEquals("", archive.options(17, new StagedArchive.Host(false, true, Set.of())),
                "a JVM that cannot open its class list says so on the job's output");
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

    @Test
    void theProbeReadsTheHostsAvailableMemoryAndFreeSwapWhereverTheyStand() {
        String memory = "MemAvailable:    2000 kB\nSwapFree:         500 kB\n";
        RemoteRankd.Probe staged = RemoteRankd.Probe.parse("sperli-size 77\n" + memory + "java java\n"
                + "openjdk version \"17.0.15\" 2025-04-15\nab12  .cache/sperli/lib/ab12.jar\n");
        assertEquals(OptionalLong.of(2500), staged.availableKib());
        assertEquals(77, staged.jobJarSize());
        assertEquals("openjdk version \"17.0.15\" 2025-04-15", staged.javaVersionLine());
        assertEquals(Map.of(".cache/sperli/lib/ab12.jar", "ab12"), staged.sums());
        RemoteRankd.Probe onPath = RemoteRankd.Probe.parse(memory + "rankd /usr/bin/sperli-rankd\n");
        assertEquals(OptionalLong.of(2500), onPath.availableKib());
        assertEquals("/usr/bin/sperli-rankd", onPath.rankdPath());
        assertEquals(OptionalLong.empty(), RemoteRankd.Probe.parse("rankd /usr/bin/sperli-rankd\n").availableKib());
    }

    @Test
    void theProbeReadsTheHostsEphemeralPortRangeWhereverItStandsAndNoneWhenGarbledOrMissing() {
        String memory = "MemAvailable:    2000 kB\nSwapFree:         500 kB\n";
        String ports = "sperli-ports 32768 60999 23000-23063\n";
        RemoteRankd.Probe staged = RemoteRankd.Probe.parse("sperli-size 77\n" + memory + ports + "java java\n"
                + "openjdk version \"17.0.15\" 2025-04-15\nab12  .cache/sperli/lib/ab12.jar\n");
        EphemeralRange range = staged.ephemeral().orElseThrow();
        assertEquals(new PortSpan(32768, 60999), range.ports());
        assertEquals(List.of(new PortSpan(23000, 23063)), range.reserved());
        assertEquals(77, staged.jobJarSize());
        assertEquals(OptionalLong.of(2500), staged.availableKib());
        assertEquals("openjdk version \"17.0.15\" 2025-04-15", staged.javaVersionLine());
        assertEquals(Map.of(".cache/sperli/lib/ab12.jar", "ab12"), staged.sums());
        RemoteRankd.Probe onPath = RemoteRankd.Probe.parse(ports + "rankd /usr/bin/sperli-rankd\n");
        assertEquals(Optional.of(range), onPath.ephemeral());
        assertEquals("/usr/bin/sperli-rankd", onPath.rankdPath());
        assertEquals(Optional.empty(), RemoteRankd.Probe.parse("sperli-ports 32768\nrankd /usr/bin/sperli-rankd\n")
                .ephemeral());
        assertEquals(Optional.empty(), RemoteRankd.Probe.parse("rankd /usr/bin/sperli-rankd\n").ephemeral());
    }

    @Test
    void theProbeScriptPrintsTheLineItsParserReads() throws Exception {
        java.nio.file.Path file = EphemeralPorts.PROC_IPV4.resolve(EphemeralPorts.RANGE_FILE);
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.isReadable(file), "no " + file + " here");
        Process sh = new ProcessBuilder("sh", "-c", EphemeralPorts.PROBE_SCRIPT + "true").start();
        String out = new String(sh.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII);
        assertEquals(0, sh.waitFor(), out);

        assertEquals(EphemeralPorts.ofThisHost(), RemoteRankd.Probe.parse(out + "rankd /usr/bin/sperli-rankd\n")
                .ephemeral(), out);
        assertTrue(out.startsWith(EphemeralPorts.PROBE_WORD + " "), out);
    }
}
