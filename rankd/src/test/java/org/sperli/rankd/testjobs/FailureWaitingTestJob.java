package org.sperli.rankd.testjobs;

import org.sperli.Communicator;
import org.sperli.SperliException;
import org.sperli.SperliJob;

/**
 * The rank named by the first argument throws; every other rank waits for a message from it, and once the job's
 * failure ends that wait, says {@code failed: CODE} and goes on running (at most 60 s), to be stopped.
 */
public final class FailureWaitingTestJob implements SperliJob {
    private static final long RUN_ON_MS = 60_000;

    @Override
    public void run(Communicator comm, String[] args) throws InterruptedException {
        int thrower = Integer.parseInt(args[0]);
        if (comm.rank() == thrower) {
            throw new IllegalStateException("boom at rank " + thrower);
        }
        try {
            comm.recv(thrower, 1);
        } catch (SperliException e) {
            System.out.println("failed: " + e.code());
            System.out.flush();
            Thread.sleep(RUN_ON_MS);
        }
    }
}
