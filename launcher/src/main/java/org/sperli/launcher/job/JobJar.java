package org.sperli.launcher.job;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HexFormat;
import org.sperli.crypto.Sha256;
import org.sperli.jobspec.JobJarManifest;
import org.sperli.launcher.exit.LauncherException;

/**
 * The job jar as the launcher names it to every rank: its path, its SHA-256 (which each rank checks before it loads a
 * class, {@code --jar-sha256}) and its size. {@link #open} refuses, before anything starts, a jar that is missing, not
 * a jar, or names no job class in its manifest.
 */
public record JobJar(Path path, String sha256Hex, long size, String jobClass) {
    /** Reads and hashes {@code path}; bad input is exit status 2. */
    public static JobJar open(Path path) {
        Path jar = path.toAbsolutePath().normalize();
        if (!Files.isRegularFile(jar)) {
            throw LauncherException.usage("job jar " + path
                    + (Files.exists(jar) ? " is not a file" : " does not exist"));
        }
        String jobClass;
        try {
            jobClass = JobJarManifest.jobClass(jar);
        } catch (IllegalArgumentException e) {
            throw LauncherException.usage("job jar " + path + " " + e.getMessage());
        }
        long size;
        String sha256Hex;
        try {
            size = Files.size(jar);
            sha256Hex = HexFormat.of().formatHex(Sha256.ofFile(jar));
        } catch (NoSuchFileException e) {
            throw LauncherException.usage("job jar " + path + " does not exist");
        } catch (IOException e) {
            throw LauncherException.usage("job jar " + path + " cannot be read: " + e.getMessage());
        }
        return new JobJar(jar, sha256Hex, size, jobClass);
    }
}
