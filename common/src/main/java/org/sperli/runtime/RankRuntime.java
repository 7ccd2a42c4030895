package org.sperli.runtime;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.sperli.Checkpointable;
import org.sperli.Communicator;
import org.sperli.ContributionFold;
import org.sperli.ElementType;
import org.sperli.ErrorCode;
import org.sperli.ReduceOp;
import org.sperli.Request;
import org.sperli.Restored;
import org.sperli.SperliException;
import org.sperli.jobspec.RankPhase;
import org.sperli.protocol.payload.Abort;
import org.sperli.trace.RankTrace;
import org.sperli.trace.TraceKind;
import org.sperli.transport.Connections;

/**
 * One rank's running job, as its program sees it: the {@link Communicator} over the parts that do the work.
 *
 * <ul>
 *   <li>{@link Mesh} builds the connections ({@link Connections}, {@link Links}) and checks every HELLO;</li>
 *   <li>{@link InboundFrames} takes what arrives into the {@link Mailbox} (tag matching, queues, flow control);</li>
 *   <li>{@link JobFate} holds the job's end: the first failure wins and is what every later call throws;</li>
 *   <li>{@link FrameLink} is what {@link PointToPoint}, {@link CollectiveEngine} and {@link CheckpointDriver} send
 *   and wait through;</li>
 *   <li>{@link Departure} is the normal end: BYE and its linger.</li>
 * </ul>
 *
 * <p>{@link RankParts} makes and wires them; the runtime offers no view inside.
 */
public final class RankRuntime implements Communicator, AutoCloseable {
    private final RankConfig config;
    private final JobFate fate;
    private final Links links;
    private final Mailbox mailbox;
    private final FrameLink frames;
    private final Connections connections;
    private final PointToPoint pointToPoint;
    private final CollectiveEngine collectives;
    private final CheckpointDriver checkpoints;
    private final RankTrace trace;

    private RankRuntime(RankParts parts) {
        this.config = parts.config();
        this.fate = parts.fate();
        this.links = parts.links();
        this.connections = parts.connectionsOrNull();
        this.mailbox = parts.mailbox();
        this.frames = parts.frames();
        this.pointToPoint = parts.pointToPoint();
        this.collectives = parts.collectives();
        this.checkpoints = parts.checkpoints();
        this.trace = parts.frames().trace();
    }

    /**
     * Builds the mesh: listens, dials every higher rank, accepts every lower one, exchanges HELLOs. Returns once every
     * peer's HELLO was checked; throws the job's failure (H1611, H1613, H1614, ...) otherwise.
     */
    public static RankRuntime connect(RankConfig config) {
        return connect(config, phase -> { });
    }

    /**
     * As {@link #connect(RankConfig)}, telling {@code phases} when the rank listens ({@link RankPhase#LISTENING}, not
     * in a job of one rank) and when every peer's HELLO was checked ({@link RankPhase#CONNECTED}, before any resume,
     * which may take a while: files can come from the buddy).
     */
    public static RankRuntime connect(RankConfig config, Consumer<RankPhase> phases) {
        return connect(config, phases, null);
    }

    /**
     * As {@link #connect(RankConfig, Consumer)}, traced into {@code traceOrNull} (null: not traced): the connection
     * setup, each peer's HELLO, the resume and its phases, every checkpoint's phases and the close; the program's
     * calls are traced through {@link #forProgram}.
     */
    public static RankRuntime connect(RankConfig config, Consumer<RankPhase> phases, RankTrace traceOrNull) {
        return connect(RankParts.of(config, traceOrNull), phases);
    }

    /** As {@link #connect(RankConfig, Consumer)} with the rank's parts made by the caller, who may look into them. */
    static RankRuntime connect(RankParts parts, Consumer<RankPhase> phases) {
        RankRuntime runtime = new RankRuntime(parts);
        RankConfig config = parts.config();
        try {
            long start = runtime.frames.traceStart();
            if (runtime.connections != null) {
                new Mesh(config, runtime.connections, runtime.links, runtime.mailbox, runtime.frames, runtime.fate,
                        new InboundFrames(config, runtime.links, runtime.mailbox, runtime.frames, runtime.fate))
                        .build(() -> phases.accept(RankPhase.LISTENING));
            }
            runtime.frames.traced(TraceKind.CONNECT, start, config.size() - 1, -1, -1);
            phases.accept(RankPhase.CONNECTED);
            runtime.checkpoints.resumeIfRestarted();
        } catch (RuntimeException e) {
            runtime.close();
            throw e;
        }
        return runtime;
    }

    /**
     * What the rank's program talks to: this runtime, or when the rank is traced a communicator that records every
     * call of the program (with its peer, tag, bytes, a collective's sequence number, a checkpoint's epoch) and then
     * passes it here. Untraced, nothing stands between the program and the runtime.
     */
    public Communicator forProgram() {
        return trace == null ? this : new TracedCommunicator(this, trace);
    }

    /** The rank's trace, or null when it is not traced. */
    public RankTrace trace() {
        return trace;
    }

    /** Collective calls this rank made so far: the sequence number of the last one. */
    public long collectiveCalls() {
        return collectives.calls();
    }

    // Rank, size and incarnation are the configuration's, fixed for the rank's life: read there, not kept twice; alike
    // to Tls13Only's forwarding overrides only in that each answers from the object it wraps.
    @Override
    public int rank() {
        return config.rank();
    }

    @Override
    public int size() {
        return config.size();
    }

    @Override
    public long incarnation() {
        return config.incarnation();
    }

    @Override
    public void send(int dest, int tag, ByteBuffer data) {
        pointToPoint.send(dest, tag, data);
    }

    @Override
    public Request<Void> isend(int dest, int tag, ByteBuffer data) {
        return pointToPoint.isend(dest, tag, data);
    }

    @Override
    public byte[] recv(int source, int tag) {
        return pointToPoint.recv(source, tag);
    }

    @Override
    public Request<byte[]> irecv(int source, int tag) {
        return pointToPoint.irecv(source, tag);
    }

    @Override
    public void barrier() {
        collectives.barrier();
    }

    @Override
    public byte[] bcast(int root, byte[] dataAtRootOrNull) {
        return collectives.bcast(root, dataAtRootOrNull);
    }

    @Override
    public byte[] reduce(int root, byte[] data, ElementType type, ReduceOp op) {
        return collectives.reduce(root, data, type, op);
    }

    @Override
    public byte[] allreduce(byte[] data, ElementType type, ReduceOp op) {
        return collectives.allreduce(data, type, op);
    }

    @Override
    public List<byte[]> gather(int root, byte[] data) {
        return collectives.gather(root, data);
    }

    @Override
    public byte[] scatter(int root, List<byte[]> blocksAtRootOrNull) {
        return collectives.scatter(root, blocksAtRootOrNull);
    }

    @Override
    public byte[] reduce(int root, byte[] data, ElementType type, ReduceOp op, ContributionFold fold) {
        return collectives.reduce(root, data, type, op, fold);
    }

    @Override
    public byte[] allreduce(byte[] data, ElementType type, ReduceOp op, ContributionFold fold) {
        return collectives.allreduce(data, type, op, fold);
    }

    @Override
    public long checkpoint(Checkpointable state) {
        return checkpoints.checkpoint(state);
    }

    @Override
    public Optional<Restored> restored() {
        return checkpoints.restored();
    }

    /**
     * Ends the job from this rank: ABORT with {@code reason} and {@code code} ({@code null}: code 0, for reasons 7
     * and 8) on every connection before any is closed, then close. The first failure wins; later calls do nothing.
     */
    public void abort(Abort.Reason reason, ErrorCode code, String message, Throwable cause) {
        frames.abort(reason, code, message, cause);
    }

    /**
     * As {@link #abort(Abort.Reason, ErrorCode, String, Throwable)} for a reason that carries no H code (the program
     * failed, the operator's stop): the ABORT's code field is {@link Abort#NO_CODE}.
     *
     * @throws IllegalArgumentException for a reason that must name a code
     */
    public void abort(Abort.Reason reason, String message, Throwable cause) {
        if (reason.carriesCode()) {
            throw new IllegalArgumentException(reason + " must name its H code");
        }
        frames.abort(reason, null, message, cause);
    }

    /**
     * Ends this rank as a SIGKILL ends a rank process, for test kits that kill a rank on purpose: no BYE and no ABORT,
     * every connection closed at once without TLS close_notify, the event loop ended. Its peers see the connections
     * end (H1613 once the close grace has passed); calls of this rank, and {@link #failure}, give H1613. A later
     * {@link #close} only releases what is left.
     */
    public void kill() {
        fate.fail(new SperliException(ErrorCode.H1613, "rank " + rank() + " was killed (as by SIGKILL)"), null,
                () -> { });
        if (connections != null) {
            // The loop's end closes every channel under the pipeline: nothing more is written, close_notify included.
            connections.close();
        }
        mailbox.releaseAll();
    }

    /** The failure that ended the job, or null while it runs. */
    public SperliException failure() {
        return fate.failure();
    }

    /**
     * Leaves the job normally: BYE on every connection, then close each (close_notify), waiting up to 2 s so that the
     * BYE is not lost to a reset. After a failure it only releases resources.
     */
    @Override
    public void close() {
        long start = frames.traceStart();
        Departure.leave(frames, links, fate, Duration.ofMillis(config.silenceMs()), config.clock());
        if (connections != null) {
            connections.close();
        }
        frames.traced(TraceKind.CLOSE, start, -1, -1, -1);
    }
}
