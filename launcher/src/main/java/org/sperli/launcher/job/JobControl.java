package org.sperli.launcher.job;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.sperli.jvm.Clock;

/**
 * The jobs a command is running, so that a shutdown hook (Ctrl-C, SIGTERM) can stop them: every rank gets SIGTERM
 * (the rank turns it into ABORT reason 8), then a bounded wait, then a kill. {@link #stopAll} returns once every job
 * has finished (ranks gone, summary printed) or the wait is over.
 */
public final class JobControl {
    private final List<JobSupervisor> running = new ArrayList<>();
    private final Clock clock;
    private boolean stopping;

    /** The jobs of a command whose stop waits on {@code clock}. */
    public JobControl(Clock clock) {
        this.clock = clock;
    }

    /** Registers a job before it starts any rank; after {@link #stopAll} the job is stopped at once. */
    public synchronized void register(JobSupervisor job) {
        running.add(job);
        if (stopping) {
            job.stop();
        }
    }

    /** Called by the command once the job's summary is printed. */
    public synchronized void finished(JobSupervisor job) {
        running.remove(job);
        notifyAll();
    }

    /** Stops every running job and waits, at most {@code wait}, until each has finished. */
    public void stopAll(Duration wait) {
        List<JobSupervisor> jobs;
        synchronized (this) {
            stopping = true;
            jobs = List.copyOf(running);
        }
        for (JobSupervisor job : jobs) {
            job.stop();
        }
        long deadlineNs = clock.nanoTime() + wait.toNanos();
        synchronized (this) {
            while (!running.isEmpty()) {
                long leftMs = (deadlineNs - clock.nanoTime()) / 1_000_000;
                if (leftMs <= 0) {
                    return;
                }
                try {
                    wait(leftMs);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }
}
