package org.sperli.examples.checkpointed;

import java.util.Optional;
import org.sperli.Communicator;
import org.sperli.ReduceOp;
import org.sperli.Restored;
import org.sperli.SperliJob;

/**
 * An iterative computation that survives the loss of a rank: every step each rank updates its values, one
 * {@code allreduce} adds them across the ranks, and each rank moves its values toward the mean. Every N steps the
 * ranks checkpoint their {@link Relaxation} (the step and the values); after a restart ({@code sperli run
 * --checkpoint-dir DIR --restart-max 1}) they resume from the last COMMIT and go on from that step. Every step is
 * deterministic and the reduction runs in rank order, so rank 0 prints the same result, to the last bit, whether or
 * not the job was killed and restarted on the way.
 *
 * <p>Arguments, all optional: steps (default 200), checkpoint every N steps (default 20), and milliseconds to sleep
 * per step (default 0), which slows the job down enough to kill a rank in the middle of it.
 */
public final class CheckpointedJob implements SperliJob {
    @Override
    public void run(Communicator comm, String[] args) throws InterruptedException {
        int steps = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        int every = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        long sleepMs = args.length > 2 ? Long.parseLong(args[2]) : 0;
        if (steps < 1 || every < 1 || sleepMs < 0) {
            throw new IllegalArgumentException("steps=" + steps + ", every=" + every + ", sleep=" + sleepMs
                    + " ms: expected steps and every at least 1, sleep not negative");
        }
        Optional<Restored> restored = comm.restored();
        Relaxation state = restored.map(r -> Relaxation.read(r.state()))
                .orElseGet(() -> Relaxation.start(comm.rank()));
        System.out.println("rank " + comm.rank() + " of " + comm.size() + ", incarnation " + comm.incarnation()
                + ", pid " + ProcessHandle.current().pid() + restored.map(r -> ", resumed from epoch " + r.epoch())
                .orElse(", fresh start") + " at step " + state.step());
        while (state.step() < steps) {
            double[] local = state.locally();
            double[] sum = comm.allreduce(local, ReduceOp.SUM);
            state = state.towardMean(local, sum, comm.size());
            if (state.step() % every == 0 && state.step() < steps) {
                long epoch = comm.checkpoint(state);
                if (comm.rank() == 0) {
                    System.out.println("checkpoint epoch " + epoch + " at step " + state.step());
                }
            }
            if (sleepMs > 0) {
                Thread.sleep(sleepMs);
            }
        }
        double total = comm.allreduce(new double[] {state.total()}, ReduceOp.SUM)[0];
        if (comm.rank() == 0) {
            System.out.println("result " + Double.toHexString(total) + " (" + total + ") after " + steps
                    + " steps on " + comm.size() + " ranks");
        }
    }
}
