package org.sperli.launcher.demo;

import java.nio.charset.StandardCharsets;
import org.sperli.Communicator;
import org.sperli.SperliJob;

/**
 * The job {@code sperli demo} runs when the examples module has not been built: every rank says hello, sends its
 * rank number to rank 0, and rank 0 prints the sum, which shows that every TLS link of the job carried a message.
 */
public final class HelloJob implements SperliJob {
    private static final int TAG = 1;

    @Override
    public void run(Communicator comm, String[] args) {
        System.out.println("hello from rank " + comm.rank() + " of " + comm.size()
                + " (incarnation " + comm.incarnation() + ")");
        if (comm.rank() != 0) {
            comm.send(0, TAG, Integer.toString(comm.rank()).getBytes(StandardCharsets.US_ASCII));
            return;
        }
        long sum = 0;
        for (int source = 1; source < comm.size(); source++) {
            sum += Long.parseLong(new String(comm.recv(source, TAG), StandardCharsets.US_ASCII));
        }
        System.out.println("rank 0 heard from every rank: sum of ranks = " + sum
                + " (expected " + (long) comm.size() * (comm.size() - 1) / 2 + ")");
    }
}
