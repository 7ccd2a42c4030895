package org.sperli.launcher.ssh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sperli.launcher.exit.ExitCodes;
import org.sperli.launcher.exit.LauncherException;

/**
 * The probe's check of the job's host names: the script run by this machine's shell says which names {@code getent
 * hosts} cannot resolve, and nothing where there is no {@code getent}; a name that does not resolve is one line naming
 * it, the host, the alias's HostName when the operator's ssh config has one, and how to list the host instead.
 */
class HostNamesTest {
    /** Reserved for names that never resolve (RFC 6761). */
    private static final String UNRESOLVABLE = "sperli-test-host.invalid";

    @TempDir
    Path dir;

    @Test
    void addressesNeedNoLookupAndEachNameIsCheckedOnce() {
        HostNames names = new HostNames(List.of("node01", "10.1.2.3", "node01", "::1", "fe80::1", "node02"),
                name -> Optional.empty());

        assertEquals(List.of("node01", "node02"), names.names());
        assertEquals("", new HostNames(List.of("127.0.0.1"), name -> Optional.empty()).probeScript());
    }

    @Test
    void theProbeSaysWhichNamesDoNotResolveOnTheHost() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/getent")), "skipped: no getent on this machine");
        HostNames names = new HostNames(List.of("localhost", UNRESOLVABLE, "127.0.0.1", "it's"),
                name -> Optional.empty());

        RemoteRankd.Probe probe = RemoteRankd.Probe.run(new LocalShell(dir, System.getenv("PATH")), null, "job.jar",
                List.of(), names);

        assertEquals(List.of(UNRESOLVABLE, "it's"), probe.unresolved());
    }

    @Test
    void aHostWithoutGetentSaysNothingOfItsNames() throws Exception {
        // A PATH without getent, as a host that has none: the names are not judged there.
        Path emptyPath = Files.createDirectory(dir.resolve("bin"));
        HostNames names = new HostNames(List.of(UNRESOLVABLE), name -> Optional.empty());

        RemoteRankd.Probe probe = RemoteRankd.Probe.run(new LocalShell(dir, emptyPath.toString()), null, "job.jar",
                List.of(), names);

        assertEquals(List.of(), probe.unresolved());
    }

    @Test
    void theProbesLinesAreTakenWhereverTheyStand() {
        RemoteRankd.Probe staged = RemoteRankd.Probe.parse("sperli-size 77\nsperli-unresolved inner\njava java\n"
                + "openjdk version \"17.0.15\" 2025-04-15\nsperli-unresolved other\n");
        assertEquals(List.of("inner", "other"), staged.unresolved());
        assertEquals(77, staged.jobJarSize());
        assertEquals("openjdk version \"17.0.15\" 2025-04-15", staged.javaVersionLine());
        RemoteRankd.Probe onPath = RemoteRankd.Probe.parse("sperli-unresolved inner\nrankd /usr/bin/sperli-rankd\n");
        assertEquals(List.of("inner"), onPath.unresolved());
        assertEquals("/usr/bin/sperli-rankd", onPath.rankdPath());
    }

    @Test
    void anAliasOfTheSshConfigIsNamedWithItsHostNameAndHowToListTheHostInstead() {
        HostNames names = new HostNames(List.of("node01", "inner", "other"),
                name -> name.equals("inner") ? Optional.of("192.0.2.10") : Optional.empty());

        LauncherException alias = assertThrows(LauncherException.class,
                () -> names.check("node01", List.of("inner", "other")));
        LauncherException plain = assertThrows(LauncherException.class, () -> names.check("node01",
                List.of("other", "not-ours")));

        assertEquals(ExitCodes.START_FAILED, alias.exitCode());
        assertEquals("host name inner does not resolve on node01 (getent hosts), and the ranks there reach their peers"
                + " by the host list's names: inner is an alias of your ssh config for HostName 192.0.2.10; list the"
                + " host as 192.0.2.10 instead, or give inner an /etc/hosts entry on every host (nor do other)",
                alias.getMessage());
        assertEquals("host name other does not resolve on node01 (getent hosts), and the ranks there reach their peers"
                + " by the host list's names: list the host by a name or address that every host resolves, or give"
                + " other an /etc/hosts entry on every host", plain.getMessage());
        // What is not a name of the job is not repeated, nor judged.
        names.check("node01", List.of("\u001b[31mnot-ours"));
    }

    /** This machine's shell as a host's: in {@code home} (the probe makes its cache directory there), PATH {@code path}. */
    private record LocalShell(Path home, String path) implements RemoteShell {
        @Override
        public String run(String script) throws IOException {
            ProcessBuilder builder = new ProcessBuilder("/bin/sh", "-c", script).directory(home.toFile());
            builder.environment().clear();
            builder.environment().putAll(Map.of("PATH", path));
            builder.redirectError(ProcessBuilder.Redirect.DISCARD);
            Process p = builder.start();
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            try {
                p.waitFor(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return out;
        }

        @Override
        public boolean holds(String path, long size) {
            throw new AssertionError("the probe copies nothing");
        }

        @Override
        public void copy(Path local, String dir, String temporary, String target, boolean replace) {
            throw new AssertionError("the probe copies nothing");
        }

        @Override
        public void close() {
        }
    }
}
