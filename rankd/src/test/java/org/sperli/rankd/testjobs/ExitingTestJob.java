package org.sperli.rankd.testjobs;

import org.sperli.Communicator;
import org.sperli.SperliJob;

/**
 * The rank named by the first argument calls {@code System.exit} with the second; every other rank waits for a
 * message from it that never comes.
 */
public final class ExitingTestJob implements SperliJob {
    @Override
    public void run(Communicator comm, String[] args) {
        int exiter = Integer.parseInt(args[0]);
        if (comm.rank() == exiter) {
            System.exit(Integer.parseInt(args[1]));
        }
        comm.recv(exiter, 1);
    }
}
