package org.sperli.rankd.job;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.function.BiFunction;
import org.sperli.Communicator;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.SperliJob;
import org.sperli.crypto.Sha256;
import org.sperli.jobspec.JobJarManifest;

/**
 * The user's job jar: its SHA-256 checked against the one the launcher names, the class its manifest names in
 * {@value SperliJob#MANIFEST_ATTRIBUTE} loaded in a class loader of its own and checked to be a usable
 * {@link SperliJob}. Every refusal is H1616 with a reason starting "jar".
 *
 * <p>The loader's parent is rankd's own loader, so the job sees {@code org.sperli.*} (and the libraries rankd
 * carries) as the one copy the runtime uses; a job jar that bundles its own copy of the API is still served rankd's.
 * The class is loaded without being initialised: its static initialiser and constructor are the program's code and
 * run in {@link #instantiate}, after the rank has joined its job, so that their failure can end the job at once.
 */
public final class JobJar implements AutoCloseable {
    private final Path path;
    private final URLClassLoader loader;
    private final Constructor<? extends SperliJob> constructor;

    private JobJar(Path path, URLClassLoader loader, Constructor<? extends SperliJob> constructor) {
        this.path = path;
        this.loader = loader;
        this.constructor = constructor;
    }

    /**
     * Checks and loads the jar at {@code path}.
     *
     * @param expectedSha256OrNull 64 lower-case hex digits, or null to skip the check (a jar the operator started
     *                             by hand)
     * @throws SperliException H1616 naming the fault
     */
    public static JobJar open(Path path, String expectedSha256OrNull) {
        return open(path, expectedSha256OrNull, (jar, parent) -> new URLClassLoader("sperli-job", new URL[] {jar},
                parent));
    }

    /**
     * As {@link #open(Path, String)}, the job's loader made by {@code loaders} over the jar's URL with rankd's loader
     * as parent: the test kit's loaders rewrite the job's classes as they load (see module testkit).
     */
    public static JobJar open(Path path, String expectedSha256OrNull, BiFunction<URL, ClassLoader,
            URLClassLoader> loaders) {
        if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
            throw refuse("jar " + path + " is not a readable file");
        }
        if (expectedSha256OrNull != null) {
            String actual = sha256Hex(path);
            if (!actual.equals(expectedSha256OrNull)) {
                throw refuse("jar sha256 of " + path + " is " + actual + ", expected " + expectedSha256OrNull);
            }
        }
        String className;
        try {
            className = JobJarManifest.jobClass(path);
        } catch (IllegalArgumentException e) {
            throw refuse("jar " + path + " " + e.getMessage());
        }
        URLClassLoader loader = loaders.apply(url(path), JobJar.class.getClassLoader());
        try {
            return new JobJar(path, loader, load(loader, className, path));
        } catch (RuntimeException | Error e) {
            closeQuietly(loader);
            throw e;
        }
    }

    /** The job class. */
    public Class<? extends SperliJob> jobClass() {
        return constructor.getDeclaringClass();
    }

    /** The loader of the job's classes, to be the context class loader while the job runs. */
    public ClassLoader loader() {
        return loader;
    }

    /**
     * Initialises the class and calls its public no-argument constructor. A throw from the static initialiser or
     * the constructor is the program's failure and comes out as {@link ProgramFailure} with the program's throwable.
     */
    public SperliJob instantiate() throws ProgramFailure {
        try {
            return constructor.newInstance();
        } catch (InvocationTargetException e) {
            throw new ProgramFailure(e.getCause());
        } catch (ExceptionInInitializerError e) {
            throw new ProgramFailure(e.getCause() != null ? e.getCause() : e);
        } catch (ReflectiveOperationException e) {
            throw refuse("jar " + path + ": class " + jobClass().getName() + " cannot be instantiated: " + e);
        }
    }

    /**
     * Runs the job's constructor and {@code run(comm, args)} with the job's loader as the thread's context loader;
     * returns what the program threw (unwrapped from reflection), or null when it returned. Whatever the program
     * throws, Errors included, is its failure: the job must end, never hang.
     */
    public Throwable run(Communicator comm, String[] args) {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            instantiate().run(comm, args);
            return null;
        } catch (ProgramFailure e) {
            return e.getCause() != null ? e.getCause() : e;
        } catch (Throwable e) {
            return e;
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    /** Closes the job's class loader (and the jar file it holds open). */
    @Override
    public void close() {
        closeQuietly(loader);
    }

    @Override
    public String toString() {
        return "JobJar[" + path + ", " + jobClass().getName() + "]";
    }

    /** Loads the class without initialising it and finds its public no-argument constructor. */
    private static Constructor<? extends SperliJob> load(ClassLoader loader, String className, Path path) {
        Class<?> c;
        try {
            c = Class.forName(className, false, loader);
        } catch (ClassNotFoundException e) {
            throw refuse("jar " + path + ": class " + className + " named by " + SperliJob.MANIFEST_ATTRIBUTE
                    + " is not in the jar");
        } catch (LinkageError e) {
            throw refuse("jar " + path + ": class " + className + " cannot be loaded: " + e);
        }
        if (!SperliJob.class.isAssignableFrom(c)) {
            throw refuse("jar " + path + ": class " + className + " does not implement " + SperliJob.class.getName());
        }
        int modifiers = c.getModifiers();
        if (!Modifier.isPublic(modifiers) || Modifier.isAbstract(modifiers)
                || (c.isMemberClass() && !Modifier.isStatic(modifiers))) {
            throw refuse("jar " + path + ": class " + className + " is not a public concrete top-level or static"
                    + " nested class");
        }
        try {
            // Reflection on members does not initialise the class: no program code runs before the rank connects.
            return c.asSubclass(SperliJob.class).getConstructor();
        } catch (NoSuchMethodException e) {
            throw refuse("jar " + path + ": class " + className + " has no public no-argument constructor");
        } catch (LinkageError e) {
            throw refuse("jar " + path + ": class " + className + " cannot be linked: " + e);
        }
    }

    private static String sha256Hex(Path path) {
        try {
            return HexFormat.of().formatHex(Sha256.ofFile(path));
        } catch (IOException e) {
            throw refuse("jar " + path + " cannot be read: " + e.getMessage());
        }
    }

    private static URL url(Path path) {
        try {
            return path.toAbsolutePath().toUri().toURL();
        } catch (IOException e) {
            throw refuse("jar " + path + " has no URL: " + e.getMessage());
        }
    }

    private static void closeQuietly(URLClassLoader loader) {
        try {
            loader.close();
        } catch (IOException e) {
            // Only the open jar file is released here; the process ends soon after.
        }
    }

    private static SperliException refuse(String reason) {
        return new SperliException(ErrorCode.H1616, reason);
    }
}
