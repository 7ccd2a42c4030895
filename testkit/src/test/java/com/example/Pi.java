package com.example;

import org.sperli.Communicator;
import org.sperli.ReduceOp;
import org.sperli.SperliJob;

/** The README's job, as printed there ("Programming against SPERLI"). */
public final class Pi implements SperliJob {
    @Override
    public void run(Communicator comm, String[] args) {
        int n = 10_000_000;
        double sum = 0;
        for (int i = comm.rank(); i < n; i += comm.size()) {
            double x = (i + 0.5) / n;
            sum += 4 / (1 + x * x);
        }
        double[] pi = comm.allreduce(new double[] {sum / n}, ReduceOp.SUM);
        if (comm.rank() == 0) {
            System.out.println("pi = " + pi[0]);
        }
    }
}
