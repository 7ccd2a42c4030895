package org.sperli.examples.ring;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.sperli.Communicator;
import org.sperli.SperliJob;

/**
 * Sends a running sum around the ring of ranks: rank 0 starts it, every rank adds its rank and passes it on to the
 * next, and rank 0 prints what comes back, which must be 0 + 1 + ... + (size - 1). The optional argument is the
 * number of laps (default 1); each lap adds the ranks again.
 */
public final class RingJob implements SperliJob {
    private static final int TAG = 1;

    @Override
    public void run(Communicator comm, String[] args) {
        int laps = args.length > 0 ? Integer.parseInt(args[0]) : 1;
        int rank = comm.rank();
        int size = comm.size();
        long expected = (long) laps * size * (size - 1) / 2;
        if (size == 1) {
            System.out.println("ring of 1 rank: sum " + 0 + " (expected " + expected + ")");
            return;
        }
        int next = (rank + 1) % size;
        int previous = (rank + size - 1) % size;
        long sum = 0;
        for (int lap = 0; lap < laps; lap++) {
            if (rank != 0) {
                sum = decode(comm.recv(previous, TAG));
            }
            comm.send(next, TAG, encode(sum + rank));
            if (rank == 0) {
                sum = decode(comm.recv(previous, TAG));
            }
        }
        if (rank == 0) {
            System.out.println("ring of " + size + " ranks, " + laps + " lap(s): sum " + sum + " (expected "
                    + expected + ")" + (sum == expected ? "" : " WRONG"));
            if (sum != expected) {
                throw new IllegalStateException("ring sum " + sum + ", expected " + expected);
            }
        }
    }

    private static ByteBuffer encode(long value) {
        return ByteBuffer.allocate(Long.BYTES).order(ByteOrder.LITTLE_ENDIAN).putLong(0, value);
    }

    private static long decode(byte[] message) {
        return ByteBuffer.wrap(message).order(ByteOrder.LITTLE_ENDIAN).getLong();
    }
}
