package org.sperli.launcher.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sperli.launcher.LauncherHarness;
import org.sperli.launcher.LauncherHarness.Run;
import org.sperli.launcher.exit.ExitCodes;

/**
 * Which launcher starts the agents: slurm by default inside an allocation, unless hosts are listed; ssh or local on
 * request; each combination that cannot work, and an allocation without MUNGE, is one line and exit status 2.
 */
class SlurmLauncherChoiceTest {
    private static final Map<String, String> ALLOCATION = Map.of("SLURM_JOB_ID", "77",
            "SLURM_JOB_NODELIST", "n[1-2]", "SLURM_TASKS_PER_NODE", "1(x2)");

    @TempDir
    Path dir;

    @AfterEach
    void nothingStarted() {
        LauncherHarness.assertNoProcessLeft();
    }

    private static void assertUsage(Run run, String expected) {
        assertEquals(ExitCodes.USAGE, run.exitCode(), run.err());
        assertEquals(1, run.errLines().size(), "one line expected:\n" + run.err());
        assertTrue(run.err().contains(expected), "expected '" + expected + "' in: " + run.err());
        assertFalse(run.err().contains("\tat "), run.err());
    }

    private Run run(Map<String, String> env, String... args) {
        return LauncherHarness.run(LauncherHarness.environment(env), args);
    }

    @Test
    void insideAnAllocationSlurmIsTheDefaultUnlessHostsBeyondItAreListed() {
        HostOptions listed = new HostOptions();
        listed.list = "a,b";
        HostOptions fromSlurm = new HostOptions();
        fromSlurm.source = HostOptions.Source.SLURM;
        Supplier<List<String>> others = () -> List.of("a", "b");
        Supplier<List<String>> nodes = () -> List.of("n2", "n1", "n2");
        assertEquals(LauncherKind.SLURM, LauncherKind.choose(null, null, ALLOCATION, List::of));
        assertEquals(LauncherKind.SLURM, LauncherKind.choose(null, fromSlurm, ALLOCATION, List::of));
        assertEquals(LauncherKind.SLURM, LauncherKind.choose(null, listed, ALLOCATION, nodes));
        assertEquals(LauncherKind.SSH, LauncherKind.choose(null, listed, ALLOCATION, others));
        assertEquals(LauncherKind.LOCAL, LauncherKind.choose(null, null, Map.of(), List::of));
        assertEquals(LauncherKind.SSH, LauncherKind.choose(null, fromSlurm, Map.of(), List::of));
        assertEquals(LauncherKind.LOCAL, LauncherKind.choose(LauncherKind.LOCAL, null, ALLOCATION, List::of));
    }

    @Test
    void withoutMungeTheSlurmLauncherIsOneLineNamingLauncherSsh() throws IOException {
        Path jar = LauncherHarness.testJar(dir);
        Path emptyPath = Files.createDirectories(dir.resolve("bin"));
        Map<String, String> env = new java.util.HashMap<>(ALLOCATION);
        env.put("PATH", emptyPath.toString());
        assertUsage(run(env, "run", "-n", "2", jar.toString()), "use --launcher ssh");
    }

    @Test
    void launcherSlurmOutsideAnAllocationIsOneLine() throws IOException {
        Path jar = LauncherHarness.testJar(dir);
        assertUsage(run(Map.of(), "run", "--launcher", "slurm", "-n", "2", jar.toString()),
                "SLURM_JOB_ID is not set");
    }

    @Test
    void launcherSlurmWithAHostBeyondTheAllocationIsOneLine() throws IOException {
        Path jar = LauncherHarness.testJar(dir);
        assertUsage(run(ALLOCATION, "run", "--launcher", "slurm", "--hosts", "n1,b", jar.toString()),
                "'b' is no node of Slurm job 77");
    }

    @Test
    void launcherLocalWithHostsIsOneLine() throws IOException {
        Path jar = LauncherHarness.testJar(dir);
        assertUsage(run(Map.of(), "run", "--launcher", "local", "--hosts", "a,b", jar.toString()),
                "--launcher local runs every rank on this host");
    }
}
