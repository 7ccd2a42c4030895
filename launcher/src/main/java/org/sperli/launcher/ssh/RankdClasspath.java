package org.sperli.launcher.ssh;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.sperli.crypto.Sha256;

/**
 * The jars a host without {@code sperli-rankd} gets to run its ranks from: the launcher's own class path (its
 * {@code -all} jar, or the {@code lib/} jars of the distribution), or {@value #VARIABLE} when set. Each is named on the
 * host by its SHA-256, so a version is staged once and a changed jar never mixes with an older one. Hashed the first
 * time a host needs them, then kept.
 */
final class RankdClasspath {
    /** Overrides the jars staged as the rank daemon: a class path ({@code :}-separated jar files). */
    static final String VARIABLE = "SPERLI_RANKD_CLASSPATH";
    /** Where the jars go, relative to the login directory. */
    static final String CACHE_DIR = ".cache/sperli/lib";

    /** One jar: the local file, its size, and its SHA-256 in hex. */
    record Jar(Path path, long size, String sha256Hex) {
        /** The file's path on the host, relative to the login directory. */
        String remotePath() {
            return CACHE_DIR + "/" + sha256Hex + ".jar";
        }
    }

    private final String classPath;
    /** Null until the first {@link #prefetch} or {@link #jars}. */
    private CompletableFuture<List<Jar>> hashing;

    private RankdClasspath(String classPath) {
        this.classPath = classPath;
    }

    static RankdClasspath of(Map<String, String> env) {
        String configured = env.get(VARIABLE);
        return new RankdClasspath(configured != null && !configured.isBlank() ? configured
                : System.getProperty("java.class.path"));
    }

    /**
     * Starts hashing the jars on a thread of its own (a noticeable time for the launcher's large jar in its C1-only
     * JVM; see docs/performance.md, section 3.5), so that it overlaps the first SSH login; {@link #jars} then waits for
     * it.
     */
    synchronized void prefetch() {
        if (hashing == null) {
            CompletableFuture<List<Jar>> started = new CompletableFuture<>();
            Thread hasher = new Thread(() -> {
                try {
                    started.complete(hash());
                } catch (IOException | RuntimeException e) {
                    started.completeExceptionally(e);
                }
            }, "sperli-rankd-hash");
            hasher.setDaemon(true);
            hasher.start();
            hashing = started;
        }
    }

    /**
     * The jars, hashed.
     *
     * @throws IOException naming the entry that is not a readable jar file (a directory of classes cannot be staged)
     */
    List<Jar> jars() throws IOException {
        CompletableFuture<List<Jar>> result;
        synchronized (this) {
            prefetch();
            result = hashing;
        }
        try {
            return result.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw e;
        }
    }

    private List<Jar> hash() throws IOException {
        List<Jar> hashed = new ArrayList<>();
        for (String entry : classPath.split(File.pathSeparator)) {
            if (entry.isBlank()) {
                continue;
            }
            Path path = Path.of(entry);
            if (!Files.isRegularFile(path) || !entry.endsWith(".jar")) {
                throw new IOException("class path entry " + entry + " is not a jar file (set " + VARIABLE
                        + " to the rank daemon's jars)");
            }
            hashed.add(new Jar(path, Files.size(path), sha256Hex(path)));
        }
        if (hashed.isEmpty()) {
            throw new IOException("the class path names no jar");
        }
        return List.copyOf(hashed);
    }

    private static String sha256Hex(Path path) throws IOException {
        return HexFormat.of().formatHex(Sha256.ofFile(path));
    }
}
