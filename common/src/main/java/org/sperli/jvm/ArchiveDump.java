package org.sperli.jvm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM that makes a class-data archive or an AOT cache, and the class list a static archive is made from: the
 * launcher makes its local ranks' archive (and, from Java 25 on, their AOT cache) this way, and a rank before Java 25
 * the archive of the other ranks of its host. The child writes a partial file, which the caller moves into place.
 */
public final class ArchiveDump {
    /** How long the child may take before it is ended: a dump takes a few seconds, on a busy machine more. */
    public static final long TIMEOUT_SECONDS = 120;

    private ArchiveDump() {
    }

    /**
     * Writes the class names of those of {@code lists} that exist, each once, in the order first seen, to
     * {@code names} (what {@link ClassLists#className} keeps of each line).
     */
    public static void writeClassNames(List<Path> lists, Path names) throws IOException {
        Set<String> kept = new LinkedHashSet<>();
        for (Path list : lists) {
            if (Files.isRegularFile(list)) {
                for (String line : Files.readAllLines(list, StandardCharsets.UTF_8)) {
                    String name = ClassLists.className(line);
                    if (name != null) {
                        kept.add(name);
                    }
                }
            }
        }
        Files.write(names, new ArrayList<>(kept), StandardCharsets.UTF_8);
    }

    /**
     * {@code java OPTIONS -Xshare:dump} of the classes named in {@code names} into {@code partial}, with
     * {@code classPath}. The options must hold the module options of the JVMs that will use the archive: a JVM whose
     * options differ uses it only in part.
     */
    public static List<String> staticDumpCommand(String java, List<String> options, Path names, Path partial,
                                                 String classPath) {
        List<String> command = new ArrayList<>();
        command.add(java);
        command.addAll(options);
        command.addAll(List.of("-Xshare:dump", "-XX:SharedClassListFile=" + names,
                "-XX:SharedArchiveFile=" + partial, "-cp", classPath));
        return command;
    }

    /**
     * Runs {@code command}, a JVM that writes {@code output}, its own output discarded, for at most
     * {@value #TIMEOUT_SECONDS} s. Returns when it exited with 0 and wrote the file; otherwise throws, saying why. The
     * child does not outlive the call, whether it ends by the bound, an interrupt or a failure.
     */
    public static void run(List<String> command, Path output) throws IOException, InterruptedException {
        run(command, output, TIMEOUT_SECONDS);
    }

    static void run(List<String> command, Path output, long timeoutSeconds) throws IOException, InterruptedException {
        Process dump = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            if (!dump.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                throw new IOException("the dump took over " + timeoutSeconds + " s");
            }
            if (dump.exitValue() != 0 || !Files.isRegularFile(output)) {
                throw new IOException("the JVM that makes it exited with " + dump.exitValue());
            }
        } finally {
            if (dump.isAlive()) {
                dump.destroyForcibly();
                awaitEnd(dump);
            }
        }
    }

    private static void awaitEnd(Process dump) {
        try {
            dump.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
