package org.sperli.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.sperli.Communicator;
import org.sperli.ReduceOp;
import org.sperli.SperliJob;

/** Small jobs for the kit's own tests. */
final class KitJobs {
    private KitJobs() {
    }

    /** Prints its rank and the sum of all ranks, from an allreduce. */
    public static final class SumJob implements SperliJob {
        @Override
        public void run(Communicator comm, String[] args) {
            long sum = comm.allreduce(new long[] {comm.rank()}, ReduceOp.SUM)[0];
            System.out.println("rank " + comm.rank() + " of " + comm.size() + " sum " + sum);
            System.err.println("to stderr from " + comm.rank());
        }
    }

    /** Rank 1 throws; the others wait in a barrier. */
    public static final class ThrowingJob implements SperliJob {
        @Override
        public void run(Communicator comm, String[] args) {
            if (comm.rank() == 1) {
                throw new IllegalStateException("boom at rank 1");
            }
            comm.barrier();
        }
    }

    /** Rank 1 calls System.exit(7); the others wait in a barrier. */
    public static final class ExitingJob implements SperliJob {
        @Override
        public void run(Communicator comm, String[] args) {
            if (comm.rank() == 1) {
                System.out.println("leaving");
                System.exit(7);
            }
            comm.barrier();
        }
    }

    /** Counts its runs in a static field: the ranks of a class job share it, those of a jar job do not. */
    public static final class StaticJob implements SperliJob {
        static final AtomicInteger RUNS = new AtomicInteger();

        @Override
        public void run(Communicator comm, String[] args) {
            System.out.println("runs " + RUNS.incrementAndGet());
            comm.barrier();
        }
    }

    /** A ring of {@code args[0]} laps, and a thread of the job's own that prints as the rank. */
    public static final class RingJob implements SperliJob {
        @Override
        public void run(Communicator comm, String[] args) throws InterruptedException {
            int laps = Integer.parseInt(args[0]);
            int next = (comm.rank() + 1) % comm.size();
            int previous = (comm.rank() + comm.size() - 1) % comm.size();
            long token = 0;
            for (int lap = 0; lap < laps; lap++) {
                if (comm.rank() != 0) {
                    token = ByteBuffer.wrap(comm.recv(previous, 5)).getLong();
                }
                comm.send(next, 5, ByteBuffer.allocate(8).putLong(0, token + 1));
                if (comm.rank() == 0) {
                    token = ByteBuffer.wrap(comm.recv(previous, 5)).getLong();
                }
            }
            Thread helper = new Thread(() -> System.out.println("helper of rank " + comm.rank()));
            helper.start();
            helper.join();
            if (comm.rank() == 0) {
                System.out.println("token " + token);
            }
        }
    }

    /**
     * Steps of one allreduce each, a checkpoint every {@code args[1]} steps (of {@code args[0]}); rank 0 prints the
     * final value and where the incarnation started. Deterministic: the same result whether or not it was killed.
     * {@code args[2]}, when given, pads each rank's state with that many zero bytes.
     */
    public static final class CountingJob implements SperliJob {
        @Override
        public void run(Communicator comm, String[] args) {
            int steps = Integer.parseInt(args[0]);
            int every = Integer.parseInt(args[1]);
            int padding = args.length > 2 ? Integer.parseInt(args[2]) : 0;
            long[] state = comm.restored().map(r -> ByteBuffer.wrap(r.state()))
                    .map(b -> new long[] {b.getLong(), b.getLong()}).orElse(new long[] {0, comm.rank() + 1});
            long from = state[0];
            while (state[0] < steps) {
                long sum = comm.allreduce(new long[] {state[1] * 3 + state[0]}, ReduceOp.SUM)[0];
                state = new long[] {state[0] + 1, sum % 1_000_003 + comm.rank()};
                if (state[0] % every == 0 && state[0] < steps) {
                    long[] now = state;
                    comm.checkpoint(out -> out.write(ByteBuffer.allocate(16 + padding).putLong(now[0])
                            .putLong(now[1]).array()));
                }
            }
            if (comm.rank() == 0) {
                System.out.println("result " + state[1] + " from step " + from);
            }
        }
    }

    /**
     * {@code args[0]} allreduces (f64 sum) of {@code args[1]} doubles of rank-dependent values with NaNs, -0.0 and
     * subnormals, then a bcast of as many bytes from rank 1; prints the hash of every result's bits.
     */
    public static final class MeshJob implements SperliJob {
        @Override
        public void run(Communicator comm, String[] args) {
            int calls = Integer.parseInt(args[0]);
            int n = Integer.parseInt(args[1]);
            double[] data = new double[n];
            for (int i = 0; i < n; i++) {
                data[i] = i % 97 == 0 ? Double.NaN : i % 89 == 0 ? -0.0 : i % 83 == 0 ? Double.MIN_VALUE * i
                        : (comm.rank() + 1) * 0.1 / (i + 1);
            }
            int hash = 0;
            for (int c = 0; c < calls; c++) {
                double[] sum = comm.allreduce(data, ReduceOp.SUM);
                for (double d : sum) {
                    hash = 31 * hash + Long.hashCode(Double.doubleToRawLongBits(d));
                }
            }
            hash = 31 * hash + java.util.Arrays.hashCode(comm.bcast(1, comm.rank() == 1 ? new byte[8 * n] : null));
            System.out.println("rank " + comm.rank() + " hash " + Integer.toHexString(hash));
        }
    }

    /** {@code args[0]} laps of a ring of 8-byte messages (tag 5), then {@code args[1]} allreduces of one long. */
    public static final class RingAndAllreduceJob implements SperliJob {
        @Override
        public void run(Communicator comm, String[] args) {
            int laps = Integer.parseInt(args[0]);
            int next = (comm.rank() + 1) % comm.size();
            int previous = (comm.rank() + comm.size() - 1) % comm.size();
            for (int lap = 0; lap < laps; lap++) {
                if (comm.rank() != 0) {
                    comm.recv(previous, 5);
                }
                comm.send(next, 5, new byte[8]);
                if (comm.rank() == 0) {
                    comm.recv(previous, 5);
                }
            }
            for (int i = 0; i < Integer.parseInt(args[1]); i++) {
                comm.allreduce(new long[] {i}, ReduceOp.SUM);
            }
        }
    }

    /** A job jar holding {@code classes} (their bytes from the test's class path), naming {@code job}. */
    static Path jar(Path dir, Class<? extends SperliJob> job, Class<?>... classes) throws IOException {
        Path jar = dir.resolve(job.getSimpleName() + ".jar");
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().putValue(SperliJob.MANIFEST_ATTRIBUTE, job.getName());
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file, manifest)) {
            for (Class<?> c : classes) {
                String name = c.getName().replace('.', '/') + ".class";
                out.putNextEntry(new JarEntry(name));
                try (InputStream in = c.getClassLoader().getResourceAsStream(name)) {
                    in.transferTo(out);
                }
                out.closeEntry();
            }
        }
        return jar;
    }
}
