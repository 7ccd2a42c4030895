package org.sperli.rankd;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.sperli.crypto.AccpLibrary;
import org.sperli.jvm.ClassLists;

/**
 * A static class-data archive made from this JVM's class list ({@code -XX:DumpLoadedClassList}) by a child JVM of the
 * same Java and class path ({@code -Xshare:dump}, a few seconds), for Javas before 25, on which a rank cannot safely
 * record for a dynamic archive (see {@link RankArchive}). The launcher makes its local ranks' archive the same way.
 */
final class ClassListDump {
    /** How long the child JVM may take before it is ended. */
    static final long TIMEOUT_SECONDS = 120;

    private ClassListDump() {
    }

    /** Writes the archive to {@code partial}, the filtered list to {@code filtered} (the caller removes both). */
    static void run(Path classList, Path filtered, Path partial) throws IOException {
        Set<String> names = new LinkedHashSet<>();
        for (String line : Files.readAllLines(classList, StandardCharsets.UTF_8)) {
            String name = ClassLists.className(line);
            if (name != null) {
                names.add(name);
            }
        }
        Files.write(filtered, new ArrayList<>(names), StandardCharsets.UTF_8);
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // The module options of the ranks: a JVM whose options differ uses an archive only in part.
        List<String> command = List.of(java, AccpLibrary.NATIVE_ACCESS, "-Xshare:dump",
                "-XX:SharedClassListFile=" + filtered, "-XX:SharedArchiveFile=" + partial, "-cp",
                System.getProperty("java.class.path"));
        Process dump = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            if (!dump.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                throw new IOException("the dump took over " + TIMEOUT_SECONDS + " s");
            }
            if (dump.exitValue() != 0 || !Files.isRegularFile(partial)) {
                throw new IOException("the JVM that makes it exited with " + dump.exitValue());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        } finally {
            if (dump.isAlive()) {
                dump.destroyForcibly();
            }
        }
    }
}
