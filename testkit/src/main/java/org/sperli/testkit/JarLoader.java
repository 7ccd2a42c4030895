package org.sperli.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.security.CodeSource;
import java.security.ProtectionDomain;
import java.security.cert.Certificate;
import java.util.Set;

/**
 * The class loader of one rank's job jar. A rank daemon's job loader asks rankd's loader first, which holds nothing
 * of the job; here the parent is the test's class path, which often holds the job's classes too (a project that tests
 * its own jar). So the jar comes first for every class it has, except the job API's packages ({@code org.sperli},
 * {@code .array}, {@code .collective}) and the kit's {@link ExitTrap}, which must be the one copy the runtime uses.
 * Each class the jar defines has its {@code System.exit} calls trapped ({@link ExitRewriter}). Every rank and
 * incarnation gets a loader of its own, so the job's static fields are the rank's own, as in a rank process.
 */
final class JarLoader extends URLClassLoader {
    private static final Set<String> SHARED_PACKAGES = Set.of("org.sperli", "org.sperli.array",
            "org.sperli.collective");

    static {
        registerAsParallelCapable();
    }

    private final ProtectionDomain domain;

    JarLoader(URL jar, ClassLoader parent) {
        super("sperli-job", new URL[] {jar}, parent);
        this.domain = new ProtectionDomain(new CodeSource(jar, (Certificate[]) null), null, this, null);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (shared(name)) {
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> c = findLoadedClass(name);
            if (c == null) {
                c = defineFromJar(name);
            }
            if (c == null) {
                return super.loadClass(name, resolve);
            }
            if (resolve) {
                resolveClass(c);
            }
            return c;
        }
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
        Class<?> c = defineFromJar(name);
        if (c == null) {
            throw new ClassNotFoundException(name);
        }
        return c;
    }

    /** The class from the jar, its exits trapped; null when the jar does not hold it. */
    private Class<?> defineFromJar(String name) throws ClassNotFoundException {
        URL resource = findResource(name.replace('.', '/') + ".class");
        if (resource == null) {
            return null;
        }
        byte[] bytes;
        try (InputStream in = resource.openStream()) {
            bytes = in.readAllBytes();
        } catch (IOException e) {
            throw new ClassNotFoundException(name + ": " + e.getMessage(), e);
        }
        byte[] trapped = ExitRewriter.rewrite(bytes);
        return defineClass(name, trapped, 0, trapped.length, domain);
    }

    private static boolean shared(String name) {
        int dot = name.lastIndexOf('.');
        String pkg = dot < 0 ? "" : name.substring(0, dot);
        return name.startsWith("java.") || SHARED_PACKAGES.contains(pkg) || name.equals(ExitTrap.class.getName())
                || name.startsWith(ExitTrap.class.getName() + "$");
    }
}
