package org.sperli.examples.hello;

import org.sperli.Communicator;
import org.sperli.SperliJob;

/** Prints this rank, the job's size and the incarnation: the smallest job, to check that a job starts at all. */
public final class HelloJob implements SperliJob {
    @Override
    public void run(Communicator comm, String[] args) {
        System.out.println("hello from rank " + comm.rank() + " of " + comm.size() + " (incarnation "
                + comm.incarnation() + ")");
    }
}
