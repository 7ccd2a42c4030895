package org.sperli.rankd;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.sperli.SperliJob;
import org.sperli.crypto.Sha256;

/**
 * Job jars made at test time from classes of the test sources, so the rank tests need no other module built first.
 * The rank processes run without the test classes on their class path: the job class is found only in its jar.
 */
final class TestJars {
    private TestJars() {
    }

    /** A jar holding {@code jobClass} with {@code Sperli-Job} naming it (or naming {@code attributeOrNull}). */
    static Path jobJar(Path dir, Class<?> jobClass, String attributeOrNull) throws IOException {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        if (attributeOrNull != null) {
            manifest.getMainAttributes().put(new Attributes.Name(SperliJob.MANIFEST_ATTRIBUTE), attributeOrNull);
        }
        Path jar = dir.resolve(jobClass.getSimpleName() + ".jar");
        String entry = jobClass.getName().replace('.', '/') + ".class";
        try (OutputStream file = Files.newOutputStream(jar);
             JarOutputStream out = new JarOutputStream(file, manifest);
             InputStream classBytes = jobClass.getClassLoader().getResourceAsStream(entry)) {
            if (classBytes == null) {
                throw new IOException("no class file " + entry);
            }
            out.putNextEntry(new JarEntry(entry));
            classBytes.transferTo(out);
            out.closeEntry();
        }
        return jar;
    }

    static Path jobJar(Path dir, Class<? extends SperliJob> jobClass) throws IOException {
        return jobJar(dir, jobClass, jobClass.getName());
    }

    static String sha256(Path file) throws IOException {
        return HexFormat.of().formatHex(Sha256.of(Files.readAllBytes(file)));
    }
}
