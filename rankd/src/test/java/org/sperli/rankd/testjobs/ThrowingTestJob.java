package org.sperli.rankd.testjobs;

import org.sperli.Communicator;
import org.sperli.SperliJob;

/** The rank named by the first argument throws; every other rank waits for a message from it that never comes. */
public final class ThrowingTestJob implements SperliJob {
    @Override
    public void run(Communicator comm, String[] args) {
        int thrower = Integer.parseInt(args[0]);
        if (comm.rank() == thrower) {
            throw new IllegalStateException("boom at rank " + thrower);
        }
        comm.recv(thrower, 1);
    }
}
