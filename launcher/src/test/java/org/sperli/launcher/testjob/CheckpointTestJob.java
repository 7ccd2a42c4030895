package org.sperli.launcher.testjob;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Optional;
import org.sperli.Checkpointable;
import org.sperli.Communicator;
import org.sperli.ReduceOp;
import org.sperli.Restored;
import org.sperli.SperliJob;

/**
 * The launcher's checkpoint job, the same computation as the examples' {@code checkpointed} job (which this module
 * cannot depend on): per step a deterministic update and one allreduce of a double[]; a checkpoint every N steps;
 * on a restart the state comes from {@link Communicator#restored()}. Arguments: steps, every, sleep ms per step, and
 * optionally a crash: rank, step of the checkpoint procedure and epoch at which that rank's process ends in
 * incarnation 1 ({@link CrashAtCheckpointStep}), and a number of ballast bytes the state carries (so that a rank file
 * spans several CKPT_DATA chunks); the ballast does not change the result.
 *
 * <p>Every rank first prints {@code rank=R incarnation=I pid=P from=fresh|epoch E step S}; rank 0 prints
 * {@code checkpoint epoch=E step=S} after each checkpoint and {@code result=<hex double>} at the end.
 */
public final class CheckpointTestJob implements SperliJob {
    private static final int VALUES = 16;

    @Override
    public void run(Communicator comm, String[] args) throws InterruptedException {
        int steps = Integer.parseInt(args[0]);
        int every = Integer.parseInt(args[1]);
        long sleepMs = Long.parseLong(args[2]);
        if (args.length >= 6 && comm.incarnation() == 1 && comm.rank() == Integer.parseInt(args[3])) {
            CrashAtCheckpointStep.install(comm, args[4], Long.parseLong(args[5]));
        }
        int ballast = args.length == 7 ? Integer.parseInt(args[6]) : 0;
        Optional<Restored> restored = comm.restored();
        State state = restored.map(r -> State.read(r.state())).orElseGet(() -> State.start(comm.rank(), ballast));
        System.out.println("rank=" + comm.rank() + " incarnation=" + comm.incarnation() + " pid="
                + ProcessHandle.current().pid() + " from=" + restored.map(r -> "epoch " + r.epoch()).orElse("fresh")
                + " step " + state.step);
        while (state.step < steps) {
            double[] local = new double[VALUES];
            for (int i = 0; i < VALUES; i++) {
                local[i] = 0.5 * state.values[i] + 0.25 * StrictMath.sin(state.values[i] + state.step);
            }
            double[] sum = comm.allreduce(local, ReduceOp.SUM);
            for (int i = 0; i < VALUES; i++) {
                local[i] += 0.1 * (sum[i] / comm.size() - local[i]);
            }
            state = new State(state.step + 1, local, state.ballast);
            if (state.step % every == 0 && state.step < steps) {
                long epoch = comm.checkpoint(state);
                // Every rank has left checkpoint, so every copy of the COMMIT is written: a test that reacts to the
                // line below finds the files of this epoch complete and no longer written to.
                comm.barrier();
                if (comm.rank() == 0) {
                    System.out.println("checkpoint epoch=" + epoch + " step=" + state.step);
                }
            }
            if (sleepMs > 0) {
                Thread.sleep(sleepMs);
            }
        }
        double total = 0;
        for (double v : state.values) {
            total += v;
        }
        total = comm.allreduce(new double[] {total}, ReduceOp.SUM)[0];
        if (comm.rank() == 0) {
            System.out.println("result=" + Double.toHexString(total));
        }
    }

    /** The step, the values and the ballast; written big-endian with DataOutputStream. */
    public static final class State implements Checkpointable {
        final int step;
        final double[] values;
        final byte[] ballast;

        State(int step, double[] values, byte[] ballast) {
            this.step = step;
            this.values = values;
            this.ballast = ballast;
        }

        static State start(int rank, int ballast) {
            double[] values = new double[VALUES];
            for (int i = 0; i < VALUES; i++) {
                values[i] = rank + 0.01 * i;
            }
            return new State(0, values, new byte[ballast]);
        }

        static State read(byte[] bytes) {
            try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
                int step = in.readInt();
                double[] values = new double[VALUES];
                for (int i = 0; i < VALUES; i++) {
                    values[i] = in.readDouble();
                }
                return new State(step, values, in.readAllBytes());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public void writeCheckpoint(OutputStream out) throws IOException {
            DataOutputStream data = new DataOutputStream(out);
            data.writeInt(step);
            for (double v : values) {
                data.writeDouble(v);
            }
            data.write(ballast);
            data.flush();
        }
    }
}
