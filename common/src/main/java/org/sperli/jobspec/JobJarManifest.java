package org.sperli.jobspec;

import java.io.IOException;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import org.sperli.SperliJob;

/**
 * The job class a job jar names in its manifest attribute {@value SperliJob#MANIFEST_ATTRIBUTE}, read and checked the
 * same way by the launcher (before anything starts) and by rankd (before it loads a class): present, at most
 * {@value #MAX_CLASS_NAME} characters, and a binary class name ({@code com.example.Pi}, {@code a.B$C}).
 */
public final class JobJarManifest {
    /** The longest class name accepted. */
    public static final int MAX_CLASS_NAME = 1024;

    private JobJarManifest() {
    }

    /**
     * The class the manifest of {@code jar} names, stripped.
     *
     * @throws IllegalArgumentException with the reason, which the caller puts after the jar's name: "cannot be read
     *     as a jar: ...", "names no job class: ...", "names no usable job class: ..."
     */
    public static String jobClass(Path jar) {
        Manifest manifest;
        try (JarFile file = new JarFile(jar.toFile())) {
            manifest = file.getManifest();
        } catch (IOException | SecurityException e) {
            throw new IllegalArgumentException("cannot be read as a jar: " + e.getMessage(), e);
        }
        String name = manifest == null ? null
                : manifest.getMainAttributes().getValue(new Attributes.Name(SperliJob.MANIFEST_ATTRIBUTE));
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("names no job class: its manifest needs '"
                    + SperliJob.MANIFEST_ATTRIBUTE + ": com.example.MyJob'");
        }
        name = name.strip();
        if (name.length() > MAX_CLASS_NAME || !isBinaryName(name)) {
            throw new IllegalArgumentException("names no usable job class: " + SperliJob.MANIFEST_ATTRIBUTE
                    + " is not a class name of at most " + MAX_CLASS_NAME + " characters");
        }
        return name;
    }

    private static boolean isBinaryName(String name) {
        for (String part : name.split("\\.", -1)) {
            if (part.isEmpty() || !Character.isJavaIdentifierStart(part.codePointAt(0))
                    || !part.codePoints().allMatch(Character::isJavaIdentifierPart)) {
                return false;
            }
        }
        return true;
    }
}
