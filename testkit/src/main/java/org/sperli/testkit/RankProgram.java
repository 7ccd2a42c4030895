package org.sperli.testkit;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.Supplier;
import org.sperli.Communicator;
import org.sperli.SperliJob;
import org.sperli.rankd.job.JobJar;

/**
 * One rank's program in one incarnation: a job made by its class's no-argument constructor, by a supplier, or loaded
 * from a job jar in a class loader of the rank's own (as the rank daemon loads it, {@link JobJar}, with
 * {@link JarLoader} instead of a plain loader). The job is made in {@link #run}, after the rank connected, so that a
 * constructor that throws is the program's failure, as in a rank process.
 */
interface RankProgram extends AutoCloseable {
    /** Makes the job and runs it; returns what the program threw, or null when it returned. */
    Throwable run(Communicator comm, String[] args);

    /** Releases the program's class loader, if it has one of its own. */
    @Override
    void close();

    /** Where each rank's program comes from. */
    interface Source {
        /** The program of {@code rank}; a jar that cannot be used is refused here with H1616. */
        RankProgram open(int rank);

        /** What the job is, for messages. */
        String describe();
    }

    /** Jobs of {@code jobClass}, made by its no-argument constructor (which need not be public). */
    static Source ofClass(Class<? extends SperliJob> jobClass) {
        Objects.requireNonNull(jobClass, "jobClass");
        return new Source() {
            @Override
            public RankProgram open(int rank) {
                return of(() -> construct(jobClass));
            }

            @Override
            public String describe() {
                return jobClass.getName();
            }
        };
    }

    /** Jobs from {@code instances}, called once per rank and incarnation. */
    static Source ofSupplier(Supplier<? extends SperliJob> instances) {
        Objects.requireNonNull(instances, "instances");
        return new Source() {
            @Override
            public RankProgram open(int rank) {
                return of(instances::get);
            }

            @Override
            public String describe() {
                return "a job supplier";
            }
        };
    }

    /** The job of the jar at {@code jar}, loaded anew for every rank and incarnation. */
    static Source ofJar(Path jar) {
        Objects.requireNonNull(jar, "jar");
        return new Source() {
            @Override
            public RankProgram open(int rank) {
                JobJar opened = JobJar.open(jar, null, JarLoader::new);
                return new RankProgram() {
                    @Override
                    public Throwable run(Communicator comm, String[] args) {
                        return opened.run(comm, args);
                    }

                    @Override
                    public void close() {
                        opened.close();
                    }
                };
            }

            @Override
            public String describe() {
                return "jar " + jar;
            }
        };
    }

    private static RankProgram of(Supplier<? extends SperliJob> jobs) {
        return new RankProgram() {
            @Override
            public Throwable run(Communicator comm, String[] args) {
                try {
                    SperliJob job = jobs.get();
                    if (job == null) {
                        return new NullPointerException("the job supplier gave null");
                    }
                    job.run(comm, args);
                    return null;
                } catch (Throwable e) {
                    return e instanceof ConstructorFailure failure ? failure.getCause() : e;
                }
            }

            @Override
            public void close() {
            }
        };
    }

    private static SperliJob construct(Class<? extends SperliJob> jobClass) {
        Constructor<? extends SperliJob> constructor;
        try {
            constructor = jobClass.getDeclaredConstructor();
            constructor.setAccessible(true);
        } catch (NoSuchMethodException e) {
            throw new IllegalArgumentException(jobClass.getName() + " has no constructor without arguments", e);
        }
        try {
            return constructor.newInstance();
        } catch (InvocationTargetException e) {
            throw new ConstructorFailure(e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalArgumentException(jobClass.getName() + " cannot be made: " + e, e);
        }
    }

    /** The job's constructor threw: its cause is the program's throwable. */
    final class ConstructorFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ConstructorFailure(Throwable cause) {
            super(cause);
        }
    }
}
