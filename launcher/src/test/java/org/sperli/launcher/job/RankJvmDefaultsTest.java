package org.sperli.launcher.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every rank JVM starts with the same default options, and the operator's own come after them, so they win. */
class RankJvmDefaultsTest {
    private static final JobJar JAR = new JobJar(Path.of("/jobs/job.jar"), "ab", 1, "x.Job");
    private static final Path SHELL_COPY = Path.of("..", "dist", "src", "main", "layout", "lib", "sperli.sh");

    @Test
    void theScriptsStartRanksWithTheSameOptionsAsTheLauncher() throws Exception {
        Matcher array = Pattern.compile("(?m)^SPERLI_RANKD_DEFAULT_OPTS=\\(([^)]*)\\)")
                .matcher(Files.readString(SHELL_COPY));
        assertTrue(array.find(), "no SPERLI_RANKD_DEFAULT_OPTS=(...) in " + SHELL_COPY);
        assertEquals(RankJvmDefaults.OPTIONS, Arrays.asList(array.group(1).strip().split("\\s+")));
    }

    @Test
    void localRanksGetTheDefaultsRightAfterJavaAndTheOperatorsOptionsAfterThem() {
        List<String> argv = RankCommand.of(null, Map.of(RankCommand.JAVA_OPTS_VARIABLE,
                "-XX:Tier4InvocationThreshold=5000 -Xmx1g")).localArgv(0, null, JAR, List.of());
        int defaults = argv.indexOf(RankJvmDefaults.OPTIONS.get(0));
        int operators = argv.indexOf("-XX:Tier4InvocationThreshold=5000");
        assertTrue(argv.get(0).endsWith("java"), argv.toString());
        assertEquals(RankJvmDefaults.OPTIONS, argv.subList(defaults, defaults + RankJvmDefaults.OPTIONS.size()));
        assertTrue(defaults > 0 && operators > defaults, argv.toString());
        assertTrue(argv.indexOf(RankCommand.RANKD_MAIN) > operators, argv.toString());
    }

    @Test
    void hugePagesAreAskedForOnlyWhereTheKernelGivesThemOnRequest(@TempDir Path dir) throws Exception {
        assertEquals(List.of(RankJvmDefaults.HUGE_PAGES), RankJvmDefaults.forThisHost(
                Files.writeString(dir.resolve("madvise"), "always [madvise] never\n")));
        assertEquals(List.of(), RankJvmDefaults.forThisHost(
                Files.writeString(dir.resolve("always"), "[always] madvise never\n")));
        assertEquals(List.of(), RankJvmDefaults.forThisHost(
                Files.writeString(dir.resolve("never"), "always madvise [never]\n")));
        assertEquals(List.of(), RankJvmDefaults.forThisHost(dir.resolve("missing")));
        assertEquals(List.of(), RankJvmDefaults.forThisHost(dir));
    }

    @Test
    void localRanksAskForHugePagesAfterTheDefaultsAndBeforeTheOperatorsOptions() {
        List<String> argv = RankCommand.of(null, Map.of(RankCommand.JAVA_OPTS_VARIABLE, "-XX:-UseTransparentHugePages"))
                .localArgv(0, null, JAR, List.of());
        int operators = argv.indexOf("-XX:-UseTransparentHugePages");
        int ours = argv.indexOf(RankJvmDefaults.HUGE_PAGES);
        assertEquals(RankJvmDefaults.forThisHost(RankJvmDefaults.THP_MODE).isEmpty(), ours < 0, argv.toString());
        assertTrue(ours < operators, "the operator's option must come later and win: " + argv);
    }

    @Test
    void anOperatorsRankCommandGetsNoDefaults() {
        List<String> argv = RankCommand.of("myrankd --x", Map.of()).localArgv(0, null, JAR, List.of());
        assertEquals(List.of("myrankd", "--x", "--jar-sha256", "ab", "/jobs/job.jar"), argv);
    }
}
