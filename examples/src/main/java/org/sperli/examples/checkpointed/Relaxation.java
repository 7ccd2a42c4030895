package org.sperli.examples.checkpointed;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import org.sperli.Checkpointable;

/**
 * The state of one rank of {@link CheckpointedJob}: the number of steps done and the rank's values. Its checkpoint
 * bytes are a version, the step, the count and the values, big-endian as {@link DataOutputStream} writes them; this
 * job is the only reader, so the layout is its own.
 */
final class Relaxation implements Checkpointable {
    static final int VALUES = 64;
    private static final int VERSION = 1;

    private final int step;
    private final double[] values;

    private Relaxation(int step, double[] values) {
        this.step = step;
        this.values = values;
    }

    /** Step 0 of {@code rank}: values that differ per rank, so that the mean means something. */
    static Relaxation start(int rank) {
        double[] values = new double[VALUES];
        for (int i = 0; i < VALUES; i++) {
            values[i] = rank + 0.001 * i;
        }
        return new Relaxation(0, values);
    }

    /** Reads what {@link #writeCheckpoint} wrote; anything else is the program's own error. */
    static Relaxation read(byte[] bytes) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            int version = in.readInt();
            int step = in.readInt();
            int count = in.readInt();
            if (version != VERSION || step < 0 || count != VALUES || bytes.length != 12 + 8 * VALUES) {
                throw new IllegalStateException("not a checkpoint of this job: version=" + version + ", step="
                        + step + ", values=" + count + ", bytes=" + bytes.length);
            }
            double[] values = new double[count];
            for (int i = 0; i < count; i++) {
                values[i] = in.readDouble();
            }
            return new Relaxation(step, values);
        } catch (IOException e) {
            throw new UncheckedIOException("checkpoint state cut short", e);
        }
    }

    @Override
    public void writeCheckpoint(OutputStream out) throws IOException {
        DataOutputStream data = new DataOutputStream(out);
        data.writeInt(VERSION);
        data.writeInt(step);
        data.writeInt(values.length);
        for (double v : values) {
            data.writeDouble(v);
        }
        data.flush();
    }

    int step() {
        return step;
    }

    /** This step's local update, before the ranks exchange anything; StrictMath gives the same bits on any JVM. */
    double[] locally() {
        double[] next = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            next[i] = 0.5 * values[i] + 0.25 * StrictMath.sin(values[i] + step);
        }
        return next;
    }

    /** The next state: each local value moved a tenth of the way toward the mean over the ranks. */
    Relaxation towardMean(double[] local, double[] sum, int size) {
        double[] next = new double[local.length];
        for (int i = 0; i < local.length; i++) {
            next[i] = local[i] + 0.1 * (sum[i] / size - local[i]);
        }
        return new Relaxation(step + 1, next);
    }

    double total() {
        double total = 0;
        for (double v : values) {
            total += v;
        }
        return total;
    }
}
