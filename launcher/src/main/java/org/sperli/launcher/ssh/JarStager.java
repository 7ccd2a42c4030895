package org.sperli.launcher.ssh;

import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import org.sperli.launcher.job.JobJar;

/**
 * Puts the job jar on a host, into a content-addressed cache under the login directory:
 * {@code ~/.cache/sperli/jars/<sha256>.jar} (and the rank daemon's jars into {@code ~/.cache/sperli/lib}, see
 * {@link RemoteRankd}), through the host's {@link RemoteShell} (SFTP for the built-in client, a pipe into the
 * operator's ssh for {@code --ssh-command}). A host that already holds that file with the jar's size keeps it; the
 * rank checks the SHA-256 before it loads a class ({@code --jar-sha256}), so a damaged cache entry is refused there,
 * never run. A new copy is written under a temporary name and renamed into place, so the cache name only ever holds
 * a whole file.
 */
final class JarStager {
    /** The cache directory, relative to the login (home) directory, which is where SFTP and exec start. */
    static final String CACHE_DIR = ".cache/sperli/jars";

    private static final SecureRandom RANDOM = new SecureRandom();

    private JarStager() {
    }

    /** The jar's path on the host, relative to the login directory. */
    static String remotePath(JobJar jar) {
        return CACHE_DIR + "/" + jar.sha256Hex() + ".jar";
    }

    /**
     * Makes sure {@code shell}'s host holds the jar; returns true when it was copied, false when it was there.
     */
    static boolean stage(RemoteShell shell, JobJar jar) throws IOException {
        return stage(shell, jar.path(), jar.size(), remotePath(jar), CACHE_DIR, false);
    }

    /**
     * Makes sure {@code shell}'s host holds {@code local} as {@code target} (relative to the login directory, inside
     * {@code cacheDir}): copied under a temporary name and renamed into place unless a file of that size is there, or
     * always when {@code replace} (its content was found wrong). Returns true when it was copied.
     */
    static boolean stage(RemoteShell shell, Path local, long size, String target, String cacheDir,
                         boolean replace) throws IOException {
        if (!replace && shell.holds(target, size)) {
            return false;
        }
        String temporary = target + ".tmp-" + HexFormat.of().formatHex(randomBytes());
        try {
            shell.copy(local, cacheDir, temporary, target, replace);
        } catch (IOException e) {
            // Another launcher may have put the same file there first.
            if (holdsAfterAll(shell, target, size, e)) {
                return false;
            }
            throw e;
        }
        return true;
    }

    private static boolean holdsAfterAll(RemoteShell shell, String target, long size, IOException failed) {
        try {
            return shell.holds(target, size);
        } catch (IOException e) {
            failed.addSuppressed(e);
            return false;
        }
    }

    private static byte[] randomBytes() {
        byte[] b = new byte[8];
        RANDOM.nextBytes(b);
        return b;
    }
}
