package org.sperli.rankd.testjobs;

import java.nio.ByteBuffer;
import org.sperli.Communicator;
import org.sperli.SperliJob;

/**
 * Prints its rank and size, then passes its rank to the next rank of the ring and checks what the previous one
 * sent: the mesh carries messages both ways. Also prints whether {@code org.sperli} came from the parent loader.
 */
public final class HelloTestJob implements SperliJob {
    @Override
    public void run(Communicator comm, String[] args) {
        int rank = comm.rank();
        int size = comm.size();
        System.out.println("hello rank " + rank + " of " + size + " args=" + String.join(",", args)
                + " jobLoader=" + HelloTestJob.class.getClassLoader().getName()
                + " apiLoaderIsParent=" + (Communicator.class.getClassLoader() != HelloTestJob.class.getClassLoader()));
        if (size > 1) {
            comm.send((rank + 1) % size, 7, ByteBuffer.allocate(4).putInt(0, rank));
            int previous = ByteBuffer.wrap(comm.recv((rank + size - 1) % size, 7)).getInt();
            if (previous != (rank + size - 1) % size) {
                throw new IllegalStateException("rank " + rank + " got " + previous);
            }
            System.out.println("rank " + rank + " got " + previous);
        }
    }
}
