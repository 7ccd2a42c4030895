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
     * Writes the class names of those of {@code lists} that exist, with their lambda lines when {@code lambdas}, each
     * once, in the order first seen, to {@code names} (what {@link ClassLists#entry} keeps of each line).
     */
    static void writeList(List<Path> lists, Path names, boolean lambdas) throws IOException {
        Set<String> kept = new LinkedHashSet<>();
        for (Path list : lists) {
            if (Files.isRegularFile(list)) {
                for (String line : Files.readAllLines(list, StandardCharsets.UTF_8)) {
                    String entry = ClassLists.entry(line, lambdas);
                    if (entry != null) {
                        kept.add(entry);
                    }
                }
            }
        }
        Files.write(names, new ArrayList<>(kept), StandardCharsets.UTF_8);
    }

    /**
     * Makes a static archive of the classes and lambdas of {@code lists} in {@code partial}: writes the list to
     * {@code names} and runs {@link #staticDumpCommand} (its arguments as there). A dump with the lambda lines that
     * fails is made again from the class names alone: an earlier session saw a JDK 17 build crash on them, which
     * could not be made to happen again on Debian's 17.0.15 here, and an archive without them still maps the classes.
     * Throws, saying why, when the second dump fails too, or when the first ran past its bound (not tried again).
     */
    public static void dumpStatic(String java, List<String> options, List<Path> lists, Path names, Path partial,
                                  String classPath) throws IOException, InterruptedException {
        dumpStatic(java, options, lists, names, partial, classPath, TIMEOUT_SECONDS);
    }

    static void dumpStatic(String java, List<String> options, List<Path> lists, Path names, Path partial,
                           String classPath, long timeoutSeconds) throws IOException, InterruptedException {
        // A JVM that crashes writes its report to the working directory, the operator's, unless told otherwise.
        Path crashReport = partial.resolveSibling(partial.getFileName() + ".crash.log");
        List<String> crashOption = new ArrayList<>(options);
        crashOption.add("-XX:ErrorFile=" + crashReport);
        try {
            writeList(lists, names, true);
            try {
                run(staticDumpCommand(java, crashOption, names, partial, classPath), partial, timeoutSeconds);
            } catch (TimedOut slow) {
                // A machine too busy to dump in time would be as busy for a second try, which the launcher awaits.
                throw slow;
            } catch (IOException withLambdas) {
                Files.deleteIfExists(partial);
                writeList(lists, names, false);
                run(staticDumpCommand(java, crashOption, names, partial, classPath), partial, timeoutSeconds);
            }
        } finally {
            Files.deleteIfExists(crashReport);
        }
    }

    /**
     * {@code java OPTIONS -Xshare:dump} of the classes named in {@code names} into {@code partial}, with
     * {@code classPath}. The options must hold the module options of the JVMs that will use the archive: a JVM whose
     * options differ uses it only in part.
     */
    static List<String> staticDumpCommand(String java, List<String> options, Path names, Path partial,
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
                throw new TimedOut("the dump took over " + timeoutSeconds + " s");
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

    /** A dump that ran past its bound, and was ended: {@link #dumpStatic} does not try it again. */
    public static final class TimedOut extends IOException {
        private static final long serialVersionUID = 1L;

        TimedOut(String message) {
            super(message);
        }
    }
}
