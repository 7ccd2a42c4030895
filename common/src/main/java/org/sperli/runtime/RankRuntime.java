package org.sperli.runtime;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.EventLoopGroup;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.sperli.Communicator;
import org.sperli.ErrorCode;
import org.sperli.Request;
import org.sperli.SperliException;
import org.sperli.protocol.FrameHeader;
import org.sperli.protocol.FrameType;
import org.sperli.protocol.Limits;
import org.sperli.protocol.payload.Abort;
import org.sperli.protocol.payload.Heartbeat;
import org.sperli.protocol.payload.Hello;
import org.sperli.transport.Frame;
import org.sperli.transport.OutboundFrame;
import org.sperli.transport.PeerEvents;

/**
 * One rank's running job: the peers, their queues, the job's fate (running, or failed with one H code), and the
 * blocking API. Frames arrive on event-loop threads and are queued under {@link #lock}; user threads wait on
 * {@link #changed}, which every arrival, close and failure signals. The first failure wins and is what every later
 * call throws.
 */
public final class RankRuntime implements Communicator, PeerEvents, AutoCloseable {
    final RankConfig config;
    final PeerLink[] peers;
    final ReentrantLock lock = new ReentrantLock();
    final Condition changed = lock.newCondition();
    EventLoopGroup group;
    Channel server;
    /** How long a leaving rank waits for its BYEs to be read (tables section 10). */
    static final java.time.Duration BYE_LINGER = java.time.Duration.ofSeconds(2);

    private SperliException failure;
    /** The ABORT that ended the job, when a peer's ABORT was its first failure. */
    private Abort receivedAbort;
    private boolean leaving;
    private int openRequests;

    RankRuntime(RankConfig config) {
        this.config = config;
        this.peers = new PeerLink[config.size()];
        for (int r = 0; r < peers.length; r++) {
            peers[r] = r == config.rank() ? null : new PeerLink(r);
        }
    }

    /**
     * Builds the mesh: listens, dials every higher rank, accepts every lower one, exchanges HELLOs. Returns once every
     * peer's HELLO was checked; throws the job's failure (H1611, H1613, H1614, ...) otherwise.
     */
    public static RankRuntime connect(RankConfig config) {
        return connect(config, () -> { });
    }

    /**
     * As {@link #connect(RankConfig)}, calling {@code meshBuilt} once every peer's HELLO was checked, before any
     * resume (which may take a while: files can come from the buddy).
     */
    public static RankRuntime connect(RankConfig config, Runnable meshBuilt) {
        RankRuntime runtime = new RankRuntime(config);
        new Mesh(runtime).build();
        try {
            meshBuilt.run();
            runtime.checkpoints.resumeIfRestarted();
        } catch (RuntimeException e) {
            runtime.close();
            throw e;
        }
        return runtime;
    }

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

    // ---- sending ----------------------------------------------------------------------------------------------

    @Override
    public void send(int dest, int tag, ByteBuffer data) {
        SendRequest request = startSend(dest, tag, data);
        awaitSend(request, -1);
    }

    @Override
    public Request<Void> isend(int dest, int tag, ByteBuffer data) {
        SendRequest request = startSend(dest, tag, data);
        lock.lock();
        try {
            request.open = true;
            openRequests++;
        } finally {
            lock.unlock();
        }
        return request;
    }

    private SendRequest startSend(int dest, int tag, ByteBuffer data) {
        checkPeer("dest", dest);
        checkTag(tag);
        if (data.remaining() > Limits.MAX_PAYLOAD) {
            throw new SperliException(ErrorCode.H1618, "message of " + data.remaining() + " bytes, maximum "
                    + Limits.MAX_PAYLOAD + "; split it");
        }
        Channel channel = liveChannel(dest);
        FrameHeader header = header(FrameType.DATA, data.remaining(), dest, tag, 0);
        // Wrapped, not copied: the request completes once TLS has consumed the caller's buffer.
        return new SendRequest(this, dest, channel.writeAndFlush(
                new OutboundFrame(header, Unpooled.wrappedBuffer(data.duplicate()))));
    }

    void awaitSend(SendRequest request, long timeoutNs) {
        ChannelFuture future = request.future;
        boolean done = timeoutNs < 0 ? future.awaitUninterruptibly().isDone()
                : future.awaitUninterruptibly(timeoutNs, TimeUnit.NANOSECONDS);
        if (done) {
            sendSeenComplete(request);
        }
        if (done && !future.isSuccess()) {
            throw failureOr(new SperliException(ErrorCode.H1613, "rank " + request.dest + " is gone: "
                    + future.cause()));
        }
    }

    boolean testSend(SendRequest request) {
        if (request.future.isDone() && !request.future.isSuccess()) {
            awaitSend(request, 0);
        }
        if (request.future.isDone()) {
            sendSeenComplete(request);
            return true;
        }
        return false;
    }

    /** An isend stops being open once its completion was seen (await returned or test gave true). */
    private void sendSeenComplete(SendRequest request) {
        lock.lock();
        try {
            if (request.open) {
                request.open = false;
                openRequests--;
                changed.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Sends a frame that is not user data (collective, checkpoint, control); returns the write future. */
    ChannelFuture sendFrame(int dest, FrameType type, long epoch, ByteBuffer payload) {
        Channel channel = liveChannel(dest);
        FrameHeader header = header(type, payload.remaining(), dest, 0, epoch);
        return channel.writeAndFlush(new OutboundFrame(header, Unpooled.wrappedBuffer(payload)));
    }

    FrameHeader header(FrameType type, long length, int dest, long tag, long epoch) {
        return FrameHeader.of(type, length, config.jobId(), config.rank(), dest, config.incarnation(), tag, epoch);
    }

    private Channel liveChannel(int dest) {
        lock.lock();
        try {
            throwIfFailed();
            PeerLink peer = peers[dest];
            if (!peer.present()) {
                throw new SperliException(ErrorCode.H1613, "rank " + dest + " has left the job");
            }
            return peer.channel;
        } finally {
            lock.unlock();
        }
    }

    // ---- receiving --------------------------------------------------------------------------------------------

    @Override
    public byte[] recv(int source, int tag) {
        return awaitRecv(post(source, tag), -1);
    }

    @Override
    public Request<byte[]> irecv(int source, int tag) {
        RecvRequest request = post(source, tag);
        lock.lock();
        try {
            request.open = true;
            openRequests++;
        } finally {
            lock.unlock();
        }
        return request;
    }

    private RecvRequest post(int source, int tag) {
        checkPeer("source", source);
        checkTag(tag);
        RecvRequest request = new RecvRequest(this, source, tag);
        lock.lock();
        try {
            throwIfFailed();
            PeerLink peer = peers[source];
            Frame frame = peer.takeData(tag);
            if (frame != null) {
                dequeued(peer, frame);
                request.matched = frame;
            } else {
                peer.posted.add(request);
                keepReading(peer);
            }
        } finally {
            lock.unlock();
        }
        return request;
    }

    byte[] awaitRecv(RecvRequest request, long timeoutNs) {
        long deadline = System.nanoTime() + timeoutNs;
        lock.lock();
        try {
            while (!request.done()) {
                throwIfFailed();
                PeerLink peer = peers[request.source];
                if (!peer.present()) {
                    throw new SperliException(ErrorCode.H1613, "rank " + request.source
                            + " left before sending a message with tag " + request.tag);
                }
                if (timeoutNs < 0) {
                    changed.awaitUninterruptibly();
                } else {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        return null;
                    }
                    changed.awaitNanos(left);
                }
            }
            closeIfOpen(request);
            return request.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SperliException(ErrorCode.H1612, "interrupted while waiting for rank " + request.source);
        } finally {
            lock.unlock();
        }
    }

    boolean testRecv(RecvRequest request) {
        lock.lock();
        try {
            if (!request.done()) {
                throwIfFailed();
                return false;
            }
            closeIfOpen(request);
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** An irecv stops being open once its completion was seen (await returned or test gave true). */
    private void closeIfOpen(RecvRequest request) {
        if (request.open) {
            request.open = false;
            openRequests--;
        }
    }

    /** Nonblocking sends and receives not yet completed; a checkpoint needs none (H1624). */
    int openRequests() {
        lock.lock();
        try {
            return openRequests;
        } finally {
            lock.unlock();
        }
    }

    private void checkPeer(String what, int rank) {
        if (rank < 0 || rank >= config.size() || rank == config.rank()) {
            throw new SperliException(ErrorCode.H1618, what + "=" + rank + ", allowed 0.." + (config.size() - 1)
                    + " except this rank (" + config.rank() + ")");
        }
    }

    private static void checkTag(long tag) {
        if (tag < 0 || tag > Limits.MAX_USER_TAG) {
            throw new SperliException(ErrorCode.H1618, "tag=" + tag + ", allowed 0..2147483647");
        }
    }

    /**
     * Blocks until a COLLECTIVE frame from {@code peer} is queued and takes it (the caller releases it). DATA frames
     * that arrived before it stay queued for recv. Throws the job's failure, or H1613 when the peer has left.
     */
    Frame awaitCollective(int peer) {
        return awaitQueued(peer, peers[peer].collective, "a collective frame");
    }

    /** As {@link #awaitCollective} for CKPT_* and RESUME frames. */
    Frame awaitCheckpoint(int peer) {
        return awaitQueued(peer, peers[peer].checkpoint, "a checkpoint frame");
    }

    private Frame awaitQueued(int peer, java.util.ArrayDeque<Frame> queue, String what) {
        lock.lock();
        try {
            while (true) {
                throwIfFailed();
                PeerLink link = peers[peer];
                Frame f = queue.poll();
                if (f != null) {
                    dequeued(link, f);
                    return f;
                }
                if (!link.present()) {
                    throw new SperliException(ErrorCode.H1613, "rank " + peer + " left while this rank waited for "
                            + what);
                }
                link.waiters++;
                try {
                    keepReading(link);
                    changed.awaitUninterruptibly();
                } finally {
                    link.waiters--;
                }
            }
        } finally {
            lock.unlock();
        }
    }

    // ---- events from the connections --------------------------------------------------------------------------

    @Override
    public void onHello(int peer, Frame frame) {
        Hello hello = Hello.read(frame.payload().nioBuffer());
        config.tokenVerifier().verify(hello.token(), peer, config.wallClockMs().getAsLong());
        lock.lock();
        try {
            peers[peer].helloDone = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void onFrame(int peer, Frame frame) {
        FrameType type = frame.header().frameType();
        try {
            switch (type) {
                case HELLO -> throw new SperliException(ErrorCode.H1614, "second HELLO from rank " + peer);
                case DATA -> {
                    deliverData(peers[peer], frame);
                    return;
                }
                case COLLECTIVE -> {
                    enqueue(peers[peer], peers[peer].collective, frame);
                    return;
                }
                case HEARTBEAT -> Heartbeat.read(frame.payload().nioBuffer());
                case ABORT -> abortedBy(peer, Abort.read(frame.payload().nioBuffer()));
                case BYE -> byeFrom(peer);
                default -> {
                    enqueue(peers[peer], peers[peer].checkpoint, frame);
                    return;
                }
            }
            frame.release();
        } catch (SperliException e) {
            frame.release();
            onRefused(peer, e);
        }
    }

    private void deliverData(PeerLink peer, Frame frame) {
        lock.lock();
        try {
            if (failure != null || leaving || !peer.present()) {
                frame.release();
                return;
            }
            RecvRequest waiting = peer.takePosted(frame.header().tag());
            if (waiting != null) {
                waiting.matched = frame;
                changed.signalAll();
            } else {
                enqueueLocked(peer, peer.data, frame);
            }
        } finally {
            lock.unlock();
        }
    }

    private void enqueue(PeerLink peer, java.util.ArrayDeque<Frame> queue, Frame frame) {
        lock.lock();
        try {
            if (failure != null || leaving || !peer.present()) {
                frame.release();
                return;
            }
            enqueueLocked(peer, queue, frame);
        } finally {
            lock.unlock();
        }
    }

    private void enqueueLocked(PeerLink peer, java.util.ArrayDeque<Frame> queue, Frame frame) {
        queue.add(frame);
        peer.queuedBytes += frame.header().length();
        if (peer.queuedBytes > PeerLink.PAUSE_ABOVE_BYTES && !peer.wanted() && peer.channel.config().isAutoRead()) {
            peer.channel.config().setAutoRead(false);
        }
        changed.signalAll();
    }

    /** Reads from {@code peer} again if its queue had paused it: the program waits for a frame not yet queued. */
    private void keepReading(PeerLink peer) {
        if (peer.channel != null && !peer.channel.config().isAutoRead() && !leaving) {
            peer.channel.config().setAutoRead(true);
        }
    }

    /** Bookkeeping when a queued frame is taken by a call. Caller holds the lock. */
    void dequeued(PeerLink peer, Frame frame) {
        peer.queuedBytes -= frame.header().length();
        if (peer.queuedBytes < PeerLink.RESUME_BELOW_BYTES && peer.channel != null
                && !peer.channel.config().isAutoRead()) {
            peer.channel.config().setAutoRead(true);
        }
    }

    @Override
    public void onRefused(int peer, SperliException refusal) {
        abort(Abort.Reason.REFUSED, refusal.code(), "rank " + config.rank() + " refused rank " + peer + ": "
                + refusal.reason(), refusal);
    }

    @Override
    public void onSilent(int peer) {
        abort(Abort.Reason.PEER_LOST, ErrorCode.H1613, "rank " + peer + " silent for " + config.silenceMs()
                + " ms", null);
    }

    @Override
    public void onClosed(int peer) {
        lock.lock();
        try {
            PeerLink link = peers[peer];
            link.closed = true;
            changed.signalAll();
            if (link.byeReceived || leaving || failure != null) {
                return;
            }
        } finally {
            lock.unlock();
        }
        abort(Abort.Reason.PEER_LOST, ErrorCode.H1613, "rank " + peer + " closed its connection without BYE",
                null);
    }

    private void byeFrom(int peer) {
        lock.lock();
        try {
            peers[peer].byeReceived = true;
            peers[peer].channel.close();
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void abortedBy(int peer, Abort abort) {
        String why = "rank " + peer + " aborted the job (reason " + abort.reason()
                + (abort.code() != 0 ? ", code H" + abort.code() : "") + "): " + abort.message();
        // A send or receive open at a checkpoint fails it with H1624 on every rank (original, "Checkpoints"). That
        // ABORT is the job's verdict, so it is this rank's code wherever the ABORT finds it: waiting in its own
        // checkpoint, in an earlier call, or still connecting, before its program could call checkpoint at all.
        boolean openAtCheckpoint = abort.reason() == Abort.Reason.CHECKPOINT_FAILED.code()
                && abort.code() == ErrorCode.H1624.number();
        SperliException cause = new SperliException(openAtCheckpoint ? ErrorCode.H1624 : ErrorCode.H1612, why);
        if (setFailure(cause, abort)) {
            // The receiver of ABORT forwards nothing: it closes everything and ends.
            closeAll();
        }
    }

    // ---- the job's fate ---------------------------------------------------------------------------------------

    /**
     * Ends the job from this rank: ABORT with {@code reason} and {@code code} ({@code null}: code 0, for reasons 7
     * and 8) on every connection before any is closed, then close. The first failure wins; later calls do nothing.
     */
    public void abort(Abort.Reason reason, ErrorCode code, String message, Throwable cause) {
        // Reasons 7 and 8 carry code 0 on the wire; locally the job then ends as aborted.
        SperliException failure = new SperliException(code != null ? code : ErrorCode.H1612, message, cause);
        java.util.List<ChannelFuture> writes = new java.util.ArrayList<>();
        lock.lock();
        try {
            if (this.failure != null || leaving) {
                return;
            }
            this.failure = failure;
            // ABORT is queued on every connection before any waiting caller learns of the failure: a woken caller may
            // close the runtime, and its close must come after the ABORT on each channel.
            byte[] payload = Abort.of(reason, code, message).toBytes();
            for (PeerLink peer : peers) {
                if (peer != null && peer.channel != null && peer.channel.isActive() && peer.present()) {
                    FrameHeader h = header(FrameType.ABORT, payload.length, peer.rank, 0, 0);
                    writes.add(peer.channel.writeAndFlush(OutboundFrame.of(h, payload)));
                }
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        config.log().accept(failure.getMessage());
        for (ChannelFuture w : writes) {
            w.awaitUninterruptibly(1, TimeUnit.SECONDS);
        }
        closeAll();
    }

    private boolean setFailure(SperliException e, Abort received) {
        lock.lock();
        try {
            if (failure != null || leaving) {
                return false;
            }
            failure = e;
            receivedAbort = received;
            changed.signalAll();
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** The failure that ended the job, or null while it runs. */
    public SperliException failure() {
        lock.lock();
        try {
            return failure;
        } finally {
            lock.unlock();
        }
    }

    /** The peer's ABORT when that was the job's first failure; null otherwise. */
    Abort receivedAbort() {
        lock.lock();
        try {
            return receivedAbort;
        } finally {
            lock.unlock();
        }
    }

    /** {@link #throwIfFailed} for callers that do not hold the lock. */
    void throwIfFailedLocked() {
        lock.lock();
        try {
            throwIfFailed();
        } finally {
            lock.unlock();
        }
    }

    void throwIfFailed() {
        if (failure != null) {
            throw new SperliException(failure.code(), failure.reason(), failure);
        }
    }

    private SperliException failureOr(SperliException fallback) {
        SperliException f = failure();
        return f != null ? new SperliException(f.code(), f.reason(), f) : fallback;
    }

    private void closeAll() {
        if (server != null) {
            server.close();
        }
        for (PeerLink peer : peers) {
            if (peer != null && peer.channel != null) {
                peer.channel.close();
            }
        }
        lock.lock();
        try {
            for (PeerLink peer : peers) {
                if (peer != null) {
                    peer.releaseAll();
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Leaves the job normally: BYE on every connection, then close each (close_notify), waiting up to 2 s so that the
     * BYE is not lost to a reset. After a failure it only releases resources.
     */
    @Override
    public void close() {
        java.util.List<ChannelFuture> byes = new java.util.ArrayList<>();
        lock.lock();
        try {
            boolean sendBye = failure == null && !leaving;
            leaving = true;
            if (sendBye) {
                for (PeerLink peer : peers) {
                    if (peer != null && peer.channel != null && peer.channel.isActive()) {
                        byes.add(peer.channel.writeAndFlush(
                                OutboundFrame.empty(header(FrameType.BYE, 0, peer.rank, 0, 0))));
                    }
                }
            }
        } finally {
            lock.unlock();
        }
        long lingerEnd = System.nanoTime() + BYE_LINGER.toNanos();
        for (ChannelFuture bye : byes) {
            bye.awaitUninterruptibly(Math.max(0, lingerEnd - System.nanoTime()), TimeUnit.NANOSECONDS);
        }
        // Linger: keep reading (and dropping) until each peer has read our BYE and closed, so that our close cannot
        // reset a connection whose peer still has our last messages unread. Bounded by 2 s in all.
        for (PeerLink peer : peers) {
            if (peer != null && peer.channel != null && !byes.isEmpty()) {
                peer.channel.config().setAutoRead(true);
                peer.channel.closeFuture().awaitUninterruptibly(
                        Math.max(0, lingerEnd - System.nanoTime()), TimeUnit.NANOSECONDS);
            }
        }
        for (PeerLink peer : peers) {
            if (peer != null && peer.channel != null) {
                peer.channel.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
            }
        }
        closeAll();
        if (group != null) {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
    }

    // ---- checkpoints: CheckpointDriver -----------------------------------------------------------------------

    final CheckpointDriver checkpoints = new CheckpointDriver(this);

    @Override
    public long checkpoint(org.sperli.Checkpointable state) {
        return checkpoints.checkpoint(state);
    }

    @Override
    public java.util.Optional<org.sperli.Restored> restored() {
        return checkpoints.restored();
    }

    // ---- collectives: CollectiveEngine -----------------------------------------------------------------------

    private final CollectiveEngine collectives = new CollectiveEngine(this);

    /** The engine, for tests that pass raw element type and operation codes. */
    CollectiveEngine collectives() {
        return collectives;
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
    public byte[] reduce(int root, byte[] data, org.sperli.ElementType type, org.sperli.ReduceOp op) {
        return collectives.reduce(root, data, type, op);
    }

    @Override
    public byte[] allreduce(byte[] data, org.sperli.ElementType type, org.sperli.ReduceOp op) {
        return collectives.allreduce(data, type, op);
    }

    @Override
    public java.util.List<byte[]> gather(int root, byte[] data) {
        return collectives.gather(root, data);
    }

    @Override
    public byte[] scatter(int root, java.util.List<byte[]> blocksAtRootOrNull) {
        return collectives.scatter(root, blocksAtRootOrNull);
    }

    @Override
    public byte[] reduce(int root, byte[] data, org.sperli.ElementType type, org.sperli.ReduceOp op,
            org.sperli.array.ContributionFold fold) {
        return collectives.reduce(root, data, type, op, fold);
    }

    @Override
    public byte[] allreduce(byte[] data, org.sperli.ElementType type, org.sperli.ReduceOp op,
            org.sperli.array.ContributionFold fold) {
        return collectives.allreduce(data, type, op, fold);
    }

    /**
     * As {@link #sendFrame(int, FrameType, long, ByteBuffer)} with the payload in two parts, {@code head} then
     * {@code body}, sent as one composite buffer so that a large body is never copied into a payload buffer.
     */
    ChannelFuture sendFrame(int dest, FrameType type, long epoch, ByteBuffer head, ByteBuffer body) {
        Channel channel = liveChannel(dest);
        FrameHeader header = header(type, head.remaining() + (long) body.remaining(), dest, 0, epoch);
        return channel.writeAndFlush(new OutboundFrame(header, Unpooled.wrappedBuffer(head, body)));
    }
}
