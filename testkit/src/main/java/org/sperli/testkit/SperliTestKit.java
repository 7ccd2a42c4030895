package org.sperli.testkit;

import java.nio.file.Path;
import java.util.function.Supplier;
import org.sperli.SperliJob;

/**
 * Runs a job's ranks inside the calling JVM, for a job author's tests: every rank a thread with its own runtime, rank
 * certificate from a job CA made for the run, and loopback port, over real TLS 1.3 and exactly the protocol a real job
 * speaks (the join tokens, HELLOs, collectives, checkpoints and resumes of {@code sperli run}).
 *
 * <pre>{@code
 * JobResult result = SperliTestKit.job(PiJob.class).ranks(4).args("1000000").run().assertCompleted();
 * assertTrue(result.stdout(0).get(0).startsWith("pi ~ 3.14159"));
 * }</pre>
 *
 * <p>{@link KitJob} says what else a run can do: a time limit, checkpoints and restarts, faults on purpose, a trace.
 */
public final class SperliTestKit {
    private SperliTestKit() {
    }

    /**
     * The job of {@code jobClass}: each rank of each incarnation gets a new instance from its constructor without
     * arguments (which need not be public). The ranks share the class and its static fields, as threads do; a job
     * jar ({@link #jar}) gives each rank its own.
     */
    public static KitJob job(Class<? extends SperliJob> jobClass) {
        return new KitJob(RankProgram.ofClass(jobClass));
    }

    /** The jobs {@code instances} gives: called once per rank and incarnation, on the rank's thread. */
    public static KitJob job(Supplier<? extends SperliJob> instances) {
        return new KitJob(RankProgram.ofSupplier(instances));
    }

    /**
     * The job jar at {@code jar}, loaded as the rank daemon loads it (the class named by its {@code Sperli-Job}
     * manifest attribute, a refused jar being H1616), in a class loader of each rank's own that reads the jar before
     * the test's class path. A {@code System.exit} in the jar's classes fails its rank as it fails a rank process
     * (status 3) instead of ending the test's JVM.
     */
    public static KitJob jar(Path jar) {
        return new KitJob(RankProgram.ofJar(jar));
    }
}
