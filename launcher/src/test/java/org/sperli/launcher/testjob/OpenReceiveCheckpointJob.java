package org.sperli.launcher.testjob;

import org.sperli.Communicator;
import org.sperli.Request;
import org.sperli.SperliJob;

/**
 * A checkpoint with a receive still open: the last rank posts an {@code irecv} from rank 0 that nobody answers, then
 * every rank calls {@code checkpoint}, which fails on every rank with H1624 (the program's exception carries it out
 * of {@code run}). Prints {@code checkpoint returned} if it does not.
 */
public final class OpenReceiveCheckpointJob implements SperliJob {
    @Override
    public void run(Communicator comm, String[] args) {
        Request<byte[]> open = comm.rank() == comm.size() - 1 ? comm.irecv(0, 9) : null;
        comm.checkpoint(out -> out.write(comm.rank()));
        System.out.println("checkpoint returned" + (open == null ? "" : ", receive done: " + open.test()));
    }
}
