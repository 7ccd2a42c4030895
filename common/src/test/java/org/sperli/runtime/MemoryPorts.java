package org.sperli.runtime;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.protocol.payload.Abort;
import org.sperli.protocol.payload.CollectiveHeader;

/**
 * The ranks of a job as {@link CollectivePort}s over queues in one JVM, for the mesh schedules' bytes at many sizes
 * and rank counts without a TLS handshake each. A frame is [collective header][data] in its own array and is checked
 * against the call as {@link CollectiveWire} checks it ({@link CollectiveWire#fault}). A job-ending refusal is recorded
 * as "reason/code" in {@link #aborts} and thrown; a rank that waits 10 s for a frame fails with H1613.
 */
final class MemoryPorts {
    private final int size;
    /** queues[from][to]. */
    private final List<List<BlockingQueue<byte[]>>> queues = new ArrayList<>();
    final List<String> aborts = Collections.synchronizedList(new ArrayList<>());
    /** Each rank's sends in order, as from&gt;to:phase:length (the vectors' schedule records). */
    private final List<List<String>> sent = new ArrayList<>();

    MemoryPorts(int size) {
        this.size = size;
        for (int from = 0; from < size; from++) {
            List<BlockingQueue<byte[]>> row = new ArrayList<>();
            for (int to = 0; to < size; to++) {
                row.add(new LinkedBlockingQueue<>());
            }
            queues.add(row);
            sent.add(Collections.synchronizedList(new ArrayList<>()));
        }
    }

    /** Every frame sent, the ranks in ascending order, each rank's in the order it sent them. */
    String sent() {
        List<String> all = new ArrayList<>();
        sent.forEach(all::addAll);
        return String.join(" ", all);
    }

    CollectivePort port(int rank) {
        return new Port(rank);
    }

    /** Puts a frame into {@code to}'s queue from {@code from}, as a faulty or hostile peer would send it. */
    void forge(int from, int to, CollectiveHeader header, byte[] data) {
        queues.get(from).get(to).add(frame(header, ByteBuffer.wrap(data)));
    }

    /** Frames sent to {@code to} by {@code from} and not received. */
    int pending(int from, int to) {
        return queues.get(from).get(to).size();
    }

    /** Runs {@code body} for every rank in a thread of its own; the results by rank. */
    <T> List<T> run(Function<CollectivePort, T> body) {
        ExecutorService pool = Executors.newFixedThreadPool(size);
        try {
            List<Future<T>> futures = new ArrayList<>();
            for (int r = 0; r < size; r++) {
                CollectivePort port = port(r);
                futures.add(pool.submit(() -> body.apply(port)));
            }
            List<T> out = new ArrayList<>();
            for (Future<T> f : futures) {
                out.add(f.get(60, TimeUnit.SECONDS));
            }
            return out;
        } catch (Exception e) {
            throw new AssertionError(e);
        } finally {
            pool.shutdownNow();
        }
    }

    private static byte[] frame(CollectiveHeader header, ByteBuffer data) {
        ByteBuffer out = ByteBuffer.allocate(CollectiveHeader.LENGTH + data.remaining());
        header.write(out);
        out.put(data.duplicate());
        return out.array();
    }

    private final class Port implements CollectivePort {
        private final int rank;

        Port(int rank) {
            this.rank = rank;
        }

        @Override
        public int rank() {
            return rank;
        }

        @Override
        public int size() {
            return size;
        }

        @Override
        public void begin() {
        }

        @Override
        public void send(int dest, CollectiveHeader header, ByteBuffer data) {
            if (dest == rank || dest < 0 || dest >= size) {
                throw new AssertionError("rank " + rank + " sends to " + dest);
            }
            sent.get(rank).add(rank + ">" + dest + ":" + header.phase() + ":" + data.remaining());
            queues.get(rank).get(dest).add(frame(header, data));
        }

        @Override
        public void awaitSends() {
        }

        @Override
        public Incoming receive(int peer, CollectiveCall call, int phase) {
            return receiveEither(peer, call, phase, phase);
        }

        @Override
        public Incoming receiveEither(int peer, CollectiveCall call, int phase, int otherPhase) {
            byte[] frame;
            try {
                frame = queues.get(peer).get(rank).poll(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                throw new SperliException(ErrorCode.H1613, "interrupted");
            }
            if (frame == null) {
                throw new SperliException(ErrorCode.H1613, "rank " + rank + " waited 10 s for rank " + peer);
            }
            String fault;
            CollectiveHeader header = null;
            try {
                header = CollectiveHeader.read(ByteBuffer.wrap(frame));
                fault = CollectiveWire.fault(header, call, phase, otherPhase);
            } catch (SperliException e) {
                fault = e.reason();
            }
            if (fault != null) {
                throw mismatch(call, peer, fault);
            }
            int got = header.phase();
            ByteBuffer data = ByteBuffer.wrap(frame, CollectiveHeader.LENGTH, frame.length - CollectiveHeader.LENGTH)
                    .slice();
            return new Incoming() {
                @Override
                public int phase() {
                    return got;
                }

                @Override
                public ByteBuffer data() {
                    return data;
                }

                @Override
                public byte[] toArray() {
                    byte[] out = new byte[data.remaining()];
                    data.duplicate().get(out);
                    return out;
                }

                @Override
                public void recycleOnClose() {
                }

                @Override
                public void close() {
                }
            };
        }

        @Override
        public SperliException mismatch(CollectiveCall call, int peer, String fault) {
            return endJob(Abort.Reason.COLLECTIVE_MISMATCH, ErrorCode.H1617, call, "frame from rank " + peer + ": "
                    + fault);
        }

        @Override
        public SperliException endJob(Abort.Reason reason, ErrorCode code, CollectiveCall call, String fault) {
            aborts.add(rank + ":" + reason.code() + "/" + code.name());
            return new SperliException(code, "rank " + rank + ", " + call + ": " + fault);
        }
    }
}
