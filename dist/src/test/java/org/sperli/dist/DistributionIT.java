package org.sperli.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sperli.dist.BoundedCommand.Result;
import org.sperli.testing.Jdks;

/**
 * The tarball alone runs jobs: unpacked into a temporary directory, reached through a symbolic link on a PATH that
 * holds no checkout, with HOME and the caches in that directory too, and a {@code mvn} on the PATH that fails the
 * test if anything calls it. Maven's {@code package} made the tarball; this runs in {@code integration-test}.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class DistributionIT {
    private static final String VERSION = System.getProperty("sperli.version");
    private static final Duration COMMAND_LIMIT = Duration.ofSeconds(120);
    private static final List<String> PAGES = List.of("sperli", "sperli-run", "sperli-demo",
            "sperli-inspect-checkpoint", "sperli-help", "sperli-rankd");

    @TempDir
    static Path dir;
    /** The unpacked sperli-VERSION directory. */
    private static Path home;
    /** The operator's shell in {@code dir/work}: sperli on the PATH through a link, nothing from the build. */
    private static BoundedCommand shell;
    private static Path helloJar;
    private static Path mavenCalls;

    @BeforeAll
    static void unpackTheTarball() throws IOException, InterruptedException {
        Path tarball = Path.of(System.getProperty("sperli.tarball"));
        assertTrue(Files.isRegularFile(tarball), "no tarball at " + tarball + ": run mvn package first");
        Path work = Files.createDirectories(dir.resolve("work"));
        Path links = Files.createDirectories(dir.resolve("links"));
        Map<String, String> env = Map.of(
                "PATH", links + ":/usr/local/bin:/usr/bin:/bin",
                "HOME", Files.createDirectories(dir.resolve("home")).toString(),
                "XDG_CACHE_HOME", dir.resolve("cache").toString(),
                "JAVA_HOME", System.getProperty("java.home"));
        shell = new BoundedCommand(work, env, COMMAND_LIMIT);
        Result untar = shell.run("tar", "xzf", tarball.toString(), "-C", dir.toString());
        assertEquals(0, untar.exitCode(), untar.shown());
        home = dir.resolve("sperli-" + VERSION);
        Files.createSymbolicLink(links.resolve("sperli"), home.resolve("bin/sperli"));
        mavenCalls = dir.resolve("maven-calls");
        Path mvn = links.resolve("mvn");
        Files.writeString(mvn, "#!/bin/sh\necho \"mvn $*\" >> '" + mavenCalls + "'\nexit 1\n");
        Files.setPosixFilePermissions(mvn, PosixFilePermissions.fromString("rwx------"));
        helloJar = Files.copy(Path.of(System.getProperty("sperli.hello.jar")), work.resolve("hello.jar"),
                StandardCopyOption.REPLACE_EXISTING);
    }

    @AfterEach
    void noProcessOfTheDistributionIsLeft() throws InterruptedException {
        List<String> left = BoundedCommand.killLeftovers(home.toString(), Duration.ofSeconds(10));
        assertEquals(List.of(), left, "processes left behind");
        assertFalse(Files.exists(mavenCalls), "the distribution called Maven");
    }

    @Test
    void versionNamesTheBuildAndTheEngineARankTakesOnThisHost() throws Exception {
        Result jdk = shell.with("SPERLI_TLS_ENGINE", "jdk").run("sperli", "--version");
        assertEquals(0, jdk.exitCode(), jdk.shown());
        assertEquals(List.of("sperli " + VERSION + " (SPERLI wire protocol v1)",
                "TLS engine: jdk (SunJSSE over the JDK's own crypto)"), jdk.outLines());
        Result auto = shell.run("sperli", "--version");
        assertEquals(0, auto.exitCode(), auto.shown());
        assertEquals(2, auto.outLines().size(), auto.shown());
        assertTrue(auto.outLines().get(1).matches("TLS engine: (accp|jdk) \\(SunJSSE over .*"), auto.shown());
    }

    /** The first job makes the class-data archives of the launcher and of its local ranks; the next uses them. */
    @Test
    void jobsRunFromTheUnpackedTarballWithTheClassDataArchive() throws Exception {
        Result first = shell.run("sperli", "run", "-n", "4", helloJar.toString());
        assertEquals(0, first.exitCode(), first.shown());
        for (int rank = 0; rank < 4; rank++) {
            assertTrue(first.out().contains("[rank " + rank + "] hello from rank " + rank + " of 4"), first.shown());
        }
        assertTrue(first.err().contains("made a class-data archive"), first.shown());
        assertTrue(first.err().contains("made the launcher's class-data archive"), first.shown());
        assertEquals(2, archives().size(), "the ranks' and the launcher's: " + archives());

        Result demo = shell.run("sperli", "demo");
        assertEquals(0, demo.exitCode(), demo.shown());
        assertTrue(demo.out().contains("sum of ranks = 6 (expected 6)"), demo.shown());
        assertFalse(demo.err().contains("class-data archive"), demo.shown());
    }

    /**
     * bin/sperli-rankd is what a remote host runs; here it runs local ranks as --rankd, from the unpacked tree, with a
     * cache of its own as on a host where no launcher ran (see {@link #rankHostKeepsItsOwnArchive}).
     */
    @Test
    void rankCommandOfTheTarballRunsRanksAndKeepsItsOwnClassDataArchive() throws Exception {
        rankHostKeepsItsOwnArchive(Path.of(System.getProperty("java.home")), "rank-host-cache");
    }

    @Test
    void rankCommandOfTheTarballKeepsItsOwnClassDataArchiveOnJava25() throws Exception {
        Path jdk = Jdks.atLeast(25).orElse(null);
        assumeTrue(jdk != null, "skipped: no JDK 25 or later here");
        assumeTrue(Runtime.version().feature() < 25, "skipped: this JVM is Java 25, which the test above ran");
        rankHostKeepsItsOwnArchive(jdk, "rank-host-cache-25");
    }

    /**
     * With {@code jdk}: the first completed job leaves the ranks' own class-data archive and nothing else of its
     * making (a static one from a class list before Java 25, a dynamic one after; the launcher's own archive aside);
     * the next job's ranks map it (with -Xshare:on a JVM that cannot map its archive does not start), and neither
     * job's output shows any of it. With the operator's own -Xshare option the ranks record nothing.
     */
    private static void rankHostKeepsItsOwnArchive(Path jdk, String cacheName) throws Exception {
        Path cache = dir.resolve(cacheName);
        BoundedCommand rankHost = shell.with("XDG_CACHE_HOME", cache.toString()).with("JAVA_HOME", jdk.toString());
        String[] job = {"sperli", "run", "--rankd", home.resolve("bin/sperli-rankd").toString(), "-n", "2",
            helloJar.toString()};

        Result first = rankHost.run(job);

        assertEquals(0, first.exitCode(), first.shown());
        assertEquals(2, first.outLines().size(), first.shown());
        List<String> made = archiveFiles(cache);
        assertEquals(1, made.size(), "archive files: " + made);
        assertTrue(made.get(0).endsWith(".rankd.jsa"), made.get(0));

        Result second = rankHost.with("SPERLI_RANKD_JAVA_OPTS", "-Xshare:on").run(job);

        assertEquals(0, second.exitCode(), second.shown());
        assertEquals(2, second.outLines().size(), second.shown());
        assertTrue(second.out().contains("[rank 0] hello from rank 0 of 2"), second.shown());
        assertEquals(made, archiveFiles(cache));

        // An operator's own CDS option wins: a JVM recording for a dynamic archive would not start with -Xshare:off.
        Path other = dir.resolve(cacheName + "-off");
        Result off = rankHost.with("XDG_CACHE_HOME", other.toString()).with("SPERLI_RANKD_JAVA_OPTS", "-Xshare:off")
                .run(job);
        assertEquals(0, off.exitCode(), off.shown());
        assertEquals(List.of(), archiveFiles(other));
    }

    @Test
    void manPagesRenderAndManFindsThemBesideBin() throws Exception {
        for (String page : PAGES) {
            assertTrue(Files.isRegularFile(home.resolve("man/man1/" + page + ".1")), page);
        }
        Result which = shell.run("sh", "-c", "command -v man");
        assumeTrue(which.exitCode() == 0, "man is not installed here: the man pages were not rendered");
        BoundedCommand man = shell.with("MANPAGER", "cat").with("MANWIDTH", "80");
        Result rendered = man.run("man", "-l", home.resolve("man/man1/sperli-run.1").toString());
        assertEquals(0, rendered.exitCode(), rendered.shown());
        assertTrue(rendered.out().contains("sperli-run - Runs job.jar"), rendered.shown());
        assertTrue(rendered.out().contains("--hosts=H[:PORT][/N],..."), rendered.shown());
        assertTrue(rendered.out().contains("[-x=VAR[=VALUE]]..."), rendered.shown());
        Result found = man.with("PATH", home.resolve("bin") + ":/usr/bin:/bin").run("man", "-w", "sperli-rankd");
        assertEquals(home.resolve("man/man1/sperli-rankd.1").toString(), found.out().strip(), found.shown());
    }

    @Test
    void completionScriptDefinesACompletionForSperliInBash() throws Exception {
        Path script = home.resolve("share/bash-completion/completions/sperli");
        Result bash = shell.run("bash", "-c", "source \"$1\" && complete -p sperli", "bash", script.toString());
        assertEquals(0, bash.exitCode(), bash.shown());
        assertTrue(bash.out().contains("-F _complete_sperli"), bash.shown());
    }

    /**
     * A job's developer needs the tarball alone: a job compiled against share/java's API jar with javac, packed with
     * jar and its Sperli-Job manifest line, runs; the API jar holds the API and nothing else, the POM beside it
     * stands alone (a job's Maven build could not find the parent), and the sources and the Javadoc are there.
     */
    @Test
    void aJobCompiledAgainstTheShippedApiRuns() throws Exception {
        Path api = home.resolve("share/java/sperli-api-" + VERSION + ".jar");
        Path src = Files.createDirectories(dir.resolve("job/src/com/example"));
        Files.writeString(src.resolve("Sum.java"), String.join("\n",
                "package com.example;",
                "public final class Sum implements org.sperli.SperliJob {",
                "    @Override",
                "    public void run(org.sperli.Communicator comm, String[] args) {",
                "        long[] sum = comm.allreduce(new long[] {comm.rank() + 1}, org.sperli.ReduceOp.SUM);",
                "        if (comm.rank() == 0) {",
                "            System.out.println(args[0] + \" \" + sum[0]);",
                "        }",
                "    }",
                "}", ""));
        Path classes = dir.resolve("job/classes");
        Files.writeString(dir.resolve("job/manifest.txt"), "Sperli-Job: com.example.Sum\n");
        Path jdkBin = Path.of(System.getProperty("java.home"), "bin");
        Result javac = shell.run(jdkBin.resolve("javac").toString(), "--release", "17", "-cp", api.toString(),
                "-d", classes.toString(), src.resolve("Sum.java").toString());
        assertEquals(0, javac.exitCode(), javac.shown());
        Path jobJar = dir.resolve("job/sum.jar");
        Result jar = shell.run(jdkBin.resolve("jar").toString(), "--create", "--file", jobJar.toString(),
                "--manifest", dir.resolve("job/manifest.txt").toString(), "-C", classes.toString(), ".");
        assertEquals(0, jar.exitCode(), jar.shown());

        Result job = shell.run("sperli", "run", "-n", "3", jobJar.toString(), "sum");

        assertEquals(0, job.exitCode(), job.shown());
        assertEquals(List.of("[rank 0] sum 6"), job.outLines(), job.shown());
        assertEquals(List.of(), entries(api).stream()
                .filter(e -> !e.endsWith("/") && !e.startsWith("org/sperli/") && !e.startsWith("META-INF/")).toList(),
                "files in the API jar besides the API");
        assertTrue(entries(home.resolve("share/java/sperli-api-" + VERSION + "-sources.jar"))
                .contains("org/sperli/SperliJob.java"));
        assertTrue(entries(home.resolve("share/java/sperli-api-" + VERSION + "-javadoc.jar")).contains("index.html"));
        assertTrue(Files.readString(home.resolve("share/doc/sperli/api/org/sperli/SperliJob.html"))
                .contains("Communicator"));
        assertTrue(Files.readString(home.resolve("share/doc/sperli/api/index.html"))
                .contains("public final class Pi implements SperliJob"), "the overview's example job");
        String pom = Files.readString(home.resolve("share/java/sperli-api-" + VERSION + ".pom"));
        assertFalse(pom.contains("<parent>"), pom);
        assertTrue(pom.contains("<groupId>org.sperli</groupId>") && pom.contains("<artifactId>sperli-api</artifactId>")
                && pom.contains("<version>" + VERSION + "</version>"), pom);
    }

    private static List<String> entries(Path jar) throws IOException {
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            return zip.stream().map(ZipEntry::getName).toList();
        }
    }

    /** The files of the ranks' archives in {@code cache}, whole or in the making; not the launcher's own archive. */
    private static List<String> archiveFiles(Path cache) throws IOException {
        if (!Files.isDirectory(cache.resolve("sperli/cds"))) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(cache.resolve("sperli/cds"))) {
            return files.map(f -> f.getFileName().toString())
                    .filter(n -> (n.contains(".jsa") || n.contains(".rankd.rank-")) && !n.endsWith(".launcher.jsa"))
                    .sorted().toList();
        }
    }

    private static List<Path> archives() throws IOException {
        try (Stream<Path> files = Files.walk(dir.resolve("cache/sperli/cds"))) {
            return files.filter(f -> f.getFileName().toString().endsWith(".jsa")).toList();
        }
    }
}
