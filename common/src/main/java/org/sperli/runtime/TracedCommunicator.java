package org.sperli.runtime;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.sperli.Checkpointable;
import org.sperli.Communicator;
import org.sperli.ContributionFold;
import org.sperli.ElementType;
import org.sperli.ReduceOp;
import org.sperli.Request;
import org.sperli.Restored;
import org.sperli.trace.RankTrace;
import org.sperli.trace.TraceKind;

/**
 * The program's communicator of a traced rank ({@link RankRuntime#forProgram}): every call becomes a span of the
 * rank's {@link RankTrace} (a call that throws too, marked failed) with its peer or root, tag and bytes, a collective's
 * sequence number and a checkpoint's epoch; the requests of {@code isend} and {@code irecv} trace their waits, and
 * their {@code test} once it returns true. Nothing is allocated per call but the request wrappers.
 */
final class TracedCommunicator implements Communicator {
    private final RankRuntime runtime;
    private final RankTrace trace;

    TracedCommunicator(RankRuntime runtime, RankTrace trace) {
        this.runtime = runtime;
        this.trace = trace;
    }

    @Override
    public int rank() {
        return runtime.rank();
    }

    @Override
    public int size() {
        return runtime.size();
    }

    @Override
    public long incarnation() {
        return runtime.incarnation();
    }

    @Override
    public Optional<Restored> restored() {
        return runtime.restored();
    }

    @Override
    public long checkpoint(Checkpointable state) {
        long start = trace.now();
        long epoch = -1;
        try {
            epoch = runtime.checkpoint(state);
            return epoch;
        } finally {
            trace.span(TraceKind.CHECKPOINT, start, -1, -1, -1, epoch, epoch < 0);
        }
    }

    @Override
    public void send(int dest, int tag, ByteBuffer data) {
        int bytes = data.remaining();
        long start = trace.now();
        boolean done = false;
        try {
            runtime.send(dest, tag, data);
            done = true;
        } finally {
            trace.span(TraceKind.SEND, start, dest, tag, bytes, -1, !done);
        }
    }

    @Override
    public Request<Void> isend(int dest, int tag, ByteBuffer data) {
        int bytes = data.remaining();
        long start = trace.now();
        Request<Void> request = null;
        try {
            request = runtime.isend(dest, tag, data);
            return new Traced<>(request, dest, tag, bytes);
        } finally {
            trace.span(TraceKind.ISEND, start, dest, tag, bytes, -1, request == null);
        }
    }

    @Override
    public byte[] recv(int source, int tag) {
        long start = trace.now();
        byte[] message = null;
        try {
            message = runtime.recv(source, tag);
            return message;
        } finally {
            trace.span(TraceKind.RECV, start, source, tag, message == null ? -1 : message.length, -1,
                    message == null);
        }
    }

    @Override
    public Request<byte[]> irecv(int source, int tag) {
        long start = trace.now();
        Request<byte[]> request = null;
        try {
            request = runtime.irecv(source, tag);
            return new Traced<>(request, source, tag, -1);
        } finally {
            trace.span(TraceKind.IRECV, start, source, tag, -1, -1, request == null);
        }
    }

    @Override
    public void barrier() {
        long start = trace.now();
        boolean done = false;
        try {
            runtime.barrier();
            done = true;
        } finally {
            collective(TraceKind.BARRIER, start, 0, 0, done);
        }
    }

    @Override
    public byte[] bcast(int root, byte[] dataAtRootOrNull) {
        long start = trace.now();
        byte[] result = null;
        try {
            result = runtime.bcast(root, dataAtRootOrNull);
            return result;
        } finally {
            collective(TraceKind.BCAST, start, root, result == null ? -1 : result.length, result != null);
        }
    }

    @Override
    public byte[] reduce(int root, byte[] data, ElementType type, ReduceOp op) {
        long start = trace.now();
        boolean done = false;
        try {
            byte[] result = runtime.reduce(root, data, type, op);
            done = true;
            return result;
        } finally {
            collective(TraceKind.REDUCE, start, root, data == null ? -1 : data.length, done);
        }
    }

    @Override
    public byte[] allreduce(byte[] data, ElementType type, ReduceOp op) {
        long start = trace.now();
        boolean done = false;
        try {
            byte[] result = runtime.allreduce(data, type, op);
            done = true;
            return result;
        } finally {
            collective(TraceKind.ALLREDUCE, start, 0, data == null ? -1 : data.length, done);
        }
    }

    @Override
    public List<byte[]> gather(int root, byte[] data) {
        long start = trace.now();
        boolean done = false;
        try {
            List<byte[]> result = runtime.gather(root, data);
            done = true;
            return result;
        } finally {
            collective(TraceKind.GATHER, start, root, data == null ? -1 : data.length, done);
        }
    }

    @Override
    public byte[] scatter(int root, List<byte[]> blocksAtRootOrNull) {
        long start = trace.now();
        byte[] block = null;
        try {
            block = runtime.scatter(root, blocksAtRootOrNull);
            return block;
        } finally {
            collective(TraceKind.SCATTER, start, root, block == null ? -1 : block.length, block != null);
        }
    }

    @Override
    public byte[] reduce(int root, byte[] data, ElementType type, ReduceOp op, ContributionFold fold) {
        long start = trace.now();
        boolean done = false;
        try {
            byte[] result = runtime.reduce(root, data, type, op, fold);
            done = true;
            return result;
        } finally {
            collective(TraceKind.REDUCE, start, root, data == null ? -1 : data.length, done);
        }
    }

    @Override
    public byte[] allreduce(byte[] data, ElementType type, ReduceOp op, ContributionFold fold) {
        long start = trace.now();
        boolean done = false;
        try {
            byte[] result = runtime.allreduce(data, type, op, fold);
            done = true;
            return result;
        } finally {
            collective(TraceKind.ALLREDUCE, start, 0, data == null ? -1 : data.length, done);
        }
    }

    /** A collective's span; its sequence number is the runtime's count, which the call took first. */
    private void collective(TraceKind kind, long start, int root, long bytes, boolean done) {
        trace.span(kind, start, root, -1, bytes, runtime.collectiveCalls(), !done);
    }

    /** A request whose waits are traced; {@code bytes} -1 for a receive, whose length is known at its end. */
    private final class Traced<T> implements Request<T> {
        private final Request<T> request;
        private final int peer;
        private final int tag;
        private final long bytes;

        Traced(Request<T> request, int peer, int tag, long bytes) {
            this.request = request;
            this.peer = peer;
            this.tag = tag;
            this.bytes = bytes;
        }

        @Override
        public T await() {
            long start = trace.now();
            T value = null;
            boolean done = false;
            try {
                value = request.await();
                done = true;
                return value;
            } finally {
                trace.span(TraceKind.WAIT, start, peer, tag, length(value), -1, !done);
            }
        }

        @Override
        public T await(Duration timeout) {
            long start = trace.now();
            T value = null;
            boolean done = false;
            try {
                value = request.await(timeout);
                done = true;
                return value;
            } finally {
                trace.span(TraceKind.WAIT, start, peer, tag, length(value), -1, !done);
            }
        }

        @Override
        public boolean test() {
            long start = trace.now();
            boolean complete = request.test();
            if (complete) {
                trace.span(TraceKind.TEST, start, peer, tag, bytes, -1, false);
            }
            return complete;
        }

        private long length(T value) {
            return value instanceof byte[] b ? b.length : bytes;
        }
    }
}
