package org.sperli.examples.pi;

import org.sperli.Communicator;
import org.sperli.ReduceOp;
import org.sperli.SperliJob;

/**
 * Computes pi as the integral of 4 / (1 + x^2) over [0, 1] by the midpoint rule: rank r sums the intervals r,
 * r + size, r + 2 size, ..., and one {@code allreduce} adds the parts. The reduction runs in ascending rank order on
 * every run, so the printed digits are the same every time for the same size. The optional argument is the number of
 * intervals (default 10,000,000).
 */
public final class PiJob implements SperliJob {
    @Override
    public void run(Communicator comm, String[] args) {
        long intervals = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
        if (intervals < 1) {
            throw new IllegalArgumentException("intervals=" + intervals + ", expected at least 1");
        }
        double width = 1.0 / intervals;
        double part = 0;
        for (long i = comm.rank(); i < intervals; i += comm.size()) {
            double x = (i + 0.5) * width;
            part += 4.0 / (1.0 + x * x);
        }
        double pi = comm.allreduce(new double[] {part * width}, ReduceOp.SUM)[0];
        if (comm.rank() == 0) {
            System.out.printf("pi ~ %.15f with %d intervals on %d ranks (error %.3e)%n", pi, intervals, comm.size(),
                    Math.abs(pi - Math.PI));
        }
    }
}
