package org.sperli.launcher.job;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import org.sperli.SperliJob;
import org.sperli.crypto.Sha256;
import org.sperli.launcher.exit.LauncherException;

/**
 * The job jar as the launcher names it to every rank: its path, its SHA-256 (which each rank checks before it loads a
 * class, {@code --jar-sha256}) and its size. {@link #open} refuses, before anything starts, a jar that is missing, not
 * a jar, or names no job class in its manifest.
 */
public record JobJar(Path path, String sha256Hex, long size, String jobClass) {
    private static final int BUFFER = 64 * 1024;

    /** Reads and hashes {@code path}; bad input is exit status 2. */
    public static JobJar open(Path path) {
        Path jar = path.toAbsolutePath().normalize();
        if (!Files.isRegularFile(jar)) {
            throw LauncherException.usage("job jar " + path
                    + (Files.exists(jar) ? " is not a file" : " does not exist"));
        }
        String jobClass;
        try (JarFile file = new JarFile(jar.toFile())) {
            Manifest manifest = file.getManifest();
            jobClass = manifest == null ? null : manifest.getMainAttributes().getValue(SperliJob.MANIFEST_ATTRIBUTE);
        } catch (IOException e) {
            throw LauncherException.usage("job jar " + path + " is not a readable jar: " + e.getMessage());
        }
        if (jobClass == null || jobClass.isBlank()) {
            throw LauncherException.usage("job jar " + path + " names no job class: its manifest needs '"
                    + SperliJob.MANIFEST_ATTRIBUTE + ": com.example.MyJob'");
        }
        MessageDigest digest = Sha256.newDigest();
        long size = 0;
        try (InputStream in = Files.newInputStream(jar)) {
            byte[] buffer = new byte[BUFFER];
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                digest.update(buffer, 0, n);
                size += n;
            }
        } catch (NoSuchFileException e) {
            throw LauncherException.usage("job jar " + path + " does not exist");
        } catch (IOException e) {
            throw LauncherException.usage("job jar " + path + " cannot be read: " + e.getMessage());
        }
        return new JobJar(jar, HexFormat.of().formatHex(digest.digest()), size, jobClass.strip());
    }
}
