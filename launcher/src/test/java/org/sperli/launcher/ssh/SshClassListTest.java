package org.sperli.launcher.ssh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sperli.jvm.ClassLists;
import org.sperli.launcher.LauncherHarness;
import org.sperli.launcher.Main;
import org.sperli.launcher.job.ClassDataArchive;

/**
 * The launcher's class-data archive holds the classes a launch over SSH loads
 * ({@link ClassDataArchive#SSH_CLASS_LIST}): the list must name every class of the SSH library and of Bouncy Castle
 * that a launcher loads to start ranks over SSH, staging included. A library upgrade changes them; this test then
 * fails and writes the list of this run to {@code target/ssh-client.classlist}, to be copied over the resource.
 */
class SshClassListTest {
    private static final List<String> LIBRARY_PREFIXES = List.of("org/apache/sshd/", "org/bouncycastle/");

    @TempDir
    Path dir;

    private EmbeddedSshServer server;

    @AfterEach
    void stopServer() throws Exception {
        LauncherHarness.killDescendants();
        if (server != null) {
            server.close();
        }
    }

    @Test
    void theArchivesSshListNamesEveryLibraryClassAnSshLaunchLoads() throws Exception {
        server = EmbeddedSshServer.start(Files.createDirectory(dir.resolve("remote-home")));
        Path sshDir = dir.resolve("ssh");
        server.writeLocalhostClient(sshDir);
        Path jar = LauncherHarness.testJar(dir);
        Path classList = dir.resolve("launcher.classlist");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder launcher = new ProcessBuilder(java, "-Xshare:off", "-XX:DumpLoadedClassList=" + classList,
                "-cp", System.getProperty("java.class.path"), Main.class.getName(), "run", "--ssh", "--ssh-dir",
                sshDir.toString(), "--remote-java", java, "--hosts",
                LauncherHarness.hosts(LauncherHarness.freePorts(2), "localhost"), jar.toString(), "ring")
                .redirectErrorStream(true).redirectOutput(dir.resolve("launcher.out").toFile());
        launcher.environment().put(RankdClasspath.VARIABLE, StagedRankdTest.rankdAllJar().toString());
        launcher.environment().put("SPERLI_RANKD_JAVA_OPTS", LauncherHarness.RANK_JAVA_OPTS);
        Process p = launcher.start();
        assertTrue(p.waitFor(LauncherHarness.RUN_LIMIT.toSeconds(), TimeUnit.SECONDS), "the launcher did not end");
        assertEquals(0, p.exitValue(), Files.readString(dir.resolve("launcher.out")));

        Set<String> loaded = new LinkedHashSet<>();
        for (String line : Files.readAllLines(classList, StandardCharsets.UTF_8)) {
            String name = ClassLists.className(line);
            if (name != null) {
                loaded.add(name);
            }
        }
        Set<String> listed = listed();
        List<String> missing = new ArrayList<>();
        for (String name : loaded) {
            if (LIBRARY_PREFIXES.stream().anyMatch(name::startsWith) && !listed.contains(name)) {
                missing.add(name);
            }
        }
        if (!missing.isEmpty()) {
            Files.write(Path.of("target", ClassDataArchive.SSH_CLASS_LIST), loaded, StandardCharsets.UTF_8);
        }
        assertEquals(List.of(), missing, "classes of an SSH launch missing from the archive's list: copy target/"
                + ClassDataArchive.SSH_CLASS_LIST + " over launcher/src/main/resources/org/sperli/launcher/job/"
                + ClassDataArchive.SSH_CLASS_LIST);
    }

    private static Set<String> listed() throws IOException {
        try (InputStream in = ClassDataArchive.class.getResourceAsStream(ClassDataArchive.SSH_CLASS_LIST)) {
            assertTrue(in != null, "no resource " + ClassDataArchive.SSH_CLASS_LIST + " beside ClassDataArchive");
            return new LinkedHashSet<>(List.of(new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")));
        }
    }
}
