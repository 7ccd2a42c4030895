package org.sperli.rankd.testjobs;

import org.sperli.Communicator;
import org.sperli.SperliJob;

/** Sends around the ring and receives, forever; says "looping" once the first lap is done. */
public final class LoopTestJob implements SperliJob {
    @Override
    public void run(Communicator comm, String[] args) throws InterruptedException {
        int next = (comm.rank() + 1) % comm.size();
        int previous = (comm.rank() + comm.size() - 1) % comm.size();
        byte[] data = new byte[64];
        for (long lap = 0; ; lap++) {
            comm.send(next, 3, data);
            comm.recv(previous, 3);
            if (lap == 0) {
                System.out.println("looping");
                System.out.flush();
            }
            Thread.sleep(5);
        }
    }
}
