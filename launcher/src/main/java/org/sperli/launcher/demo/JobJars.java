package org.sperli.launcher.demo;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.sperli.SperliJob;

/**
 * Writes a job jar from classes on this class path: the job class and any helpers, with the {@code Sperli-Job}
 * manifest attribute naming the job class. Used by {@code sperli demo} and by the tests.
 */
public final class JobJars {
    private JobJars() {
    }

    /** Writes {@code target} holding {@code jobClass} and {@code helpers}, naming {@code jobClass} as the job. */
    public static Path write(Path target, Class<? extends SperliJob> jobClass, Class<?>... helpers)
            throws IOException {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().putValue(SperliJob.MANIFEST_ATTRIBUTE, jobClass.getName());
        try (OutputStream file = Files.newOutputStream(target);
             JarOutputStream jar = new JarOutputStream(file, manifest)) {
            addClass(jar, jobClass);
            for (Class<?> helper : helpers) {
                addClass(jar, helper);
            }
        }
        return target;
    }

    private static void addClass(JarOutputStream jar, Class<?> type) throws IOException {
        String name = type.getName().replace('.', '/') + ".class";
        try (InputStream in = type.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException("class file " + name + " not found on the class path");
            }
            jar.putNextEntry(new JarEntry(name));
            in.transferTo(jar);
            jar.closeEntry();
        }
    }
}
