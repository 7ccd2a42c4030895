package org.sperli.runtime;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.protocol.Limits;
import org.sperli.protocol.frame.FrameHeader;
import org.sperli.protocol.frame.FrameType;
import org.sperli.protocol.payload.Abort;
import org.sperli.trace.RankTrace;
import org.sperli.trace.TraceKind;
import org.sperli.transport.Frame;
import org.sperli.transport.OutboundFrame;
import org.sperli.transport.PeerChannel;
import org.sperli.transport.Progress;

/**
 * What the collectives, the checkpoints and the resume see of the job: frames out to one peer, the next queued
 * frame of their kind from one peer, and the job's end (ABORT to every peer). Payloads are wrapped, never copied: the
 * returned request completes once TLS has consumed them.
 */
final class FrameLink {
    /** How long an aborting rank waits for its ABORT frames to be taken by TLS. */
    private static final long ABORT_WRITE_WAIT_MS = 1000;
    /** How long a call that met a closed connection waits for the job's verdict: the close grace, and some slack. */
    static final long VERDICT_WAIT_MS = Limits.CLOSE_GRACE_MS + 500;

    private final RankConfig config;
    private final Links links;
    private final Mailbox mailbox;
    private final JobFate fate;
    private final Progress progress;
    private final RankTrace trace;

    FrameLink(RankConfig config, Links links, Mailbox mailbox, JobFate fate, Progress progress) {
        this(config, links, mailbox, fate, progress, null);
    }

    /** {@code traceOrNull}: where the checkpoint, resume and setup phases are traced; null when off. */
    FrameLink(RankConfig config, Links links, Mailbox mailbox, JobFate fate, Progress progress,
              RankTrace traceOrNull) {
        this.trace = traceOrNull;
        this.config = config;
        this.links = links;
        this.mailbox = mailbox;
        this.fate = fate;
        this.progress = progress;
    }

    RankConfig config() {
        return config;
    }

    int rank() {
        return config.rank();
    }

    /** The rank's trace, or null when it is not traced. */
    RankTrace trace() {
        return trace;
    }

    /** The start of a traced phase ({@link #traced}), or 0 when the rank is not traced. */
    long traceStart() {
        return trace == null ? 0 : trace.now();
    }

    /** A phase from {@code start} to now, when the rank is traced; fields the kind does not use are -1. */
    void traced(TraceKind kind, long start, int peer, long bytes, long epoch) {
        if (trace != null) {
            trace.span(kind, start, peer, -1, bytes, epoch, false);
        }
    }

    int size() {
        return config.size();
    }

    FrameHeader header(FrameType type, long length, int dest, long tag, long epoch) {
        return FrameHeader.of(type, length, config.jobId(), config.rank(), dest, config.incarnation(), tag, epoch);
    }

    /** Starts sending a frame of {@code type}; throws the job's failure, or H1613 when {@code dest} has left. */
    SendRequest send(int dest, FrameType type, long tag, long epoch, ByteBuffer payload) {
        return send(dest, header(type, payload.remaining(), dest, tag, epoch), Unpooled.wrappedBuffer(payload));
    }

    /** As {@link #send(int, FrameType, long, long, ByteBuffer)} with the payload in two parts, never joined. */
    SendRequest send(int dest, FrameType type, long epoch, ByteBuffer head, ByteBuffer body) {
        FrameHeader h = header(type, head.remaining() + (long) body.remaining(), dest, 0, epoch);
        return send(dest, h, Unpooled.wrappedBuffer(head, body));
    }

    private SendRequest send(int dest, FrameHeader header, ByteBuf payload) {
        PeerChannel channel = liveChannel(dest);
        return new SendRequest(dest, channel.write(new OutboundFrame(header, payload)), fate, progress,
                config.clock());
    }

    private PeerChannel liveChannel(int dest) {
        fate.throwIfFailed();
        if (!mailbox.present(dest)) {
            if (mailbox.lost(dest)) {
                // The job's verdict on that close is due within the close grace (protocol 7.5).
                fate.awaitFailure(VERDICT_WAIT_MS);
                fate.throwIfFailed();
            }
            throw new SperliException(ErrorCode.H1613, "rank " + dest + " has left the job");
        }
        return links.channel(dest);
    }

    /** The next COLLECTIVE frame from {@code peer} (the caller releases it); see {@link Mailbox#await}. */
    Frame awaitCollective(int peer) {
        return mailbox.await(peer, Mailbox.Kind.COLLECTIVE);
    }

    /** The next CKPT_* or RESUME frame from {@code peer}, or null when none came within {@code timeoutNs}. */
    Frame awaitCheckpoint(int peer, long timeoutNs) {
        return mailbox.await(peer, Mailbox.Kind.CHECKPOINT, timeoutNs);
    }

    /**
     * Ends the job from this rank: ABORT with {@code reason} and {@code code} ({@code null}: code 0, for reasons 7
     * and 8) on every connection before any is closed, then close. The first failure wins; later calls do nothing.
     */
    void abort(Abort.Reason reason, ErrorCode code, String message, Throwable cause) {
        // Reasons 7 and 8 carry code 0 on the wire; locally the job then ends as aborted.
        SperliException failure = new SperliException(code != null ? code : ErrorCode.H1612, message, cause);
        byte[] payload = Abort.of(reason, code, message).toBytes();
        List<ChannelFuture> writes = new ArrayList<>();
        boolean first = fate.fail(failure, null, () -> writes.addAll(links.writeToAll(mailbox::present,
                peer -> OutboundFrame.of(header(FrameType.ABORT, payload.length, peer, 0, 0), payload))));
        if (!first) {
            return;
        }
        config.log().accept(failure.getMessage());
        for (ChannelFuture w : writes) {
            w.awaitUninterruptibly(ABORT_WRITE_WAIT_MS, TimeUnit.MILLISECONDS);
        }
        endConnections();
    }

    /** After a peer's ABORT: the job's failure is {@code cause}, and this rank forwards nothing, it closes. */
    void abortedBy(SperliException cause, Abort received) {
        if (fate.fail(cause, received, () -> { })) {
            endConnections();
        }
    }

    /**
     * Before a normal departure: when a peer closed without BYE, waits for the job's verdict on it (due within the
     * close grace), so that a rank finishing just then does not leave as if nothing had happened.
     */
    void awaitVerdictOnLostPeers() {
        if (fate.running() && mailbox.anyLost()) {
            fate.awaitFailure(VERDICT_WAIT_MS);
        }
    }

    /** Closes every connection and drops every queued frame. */
    void endConnections() {
        links.closeAll();
        mailbox.releaseAll();
    }

    SperliException failure() {
        return fate.failure();
    }

    Abort receivedAbort() {
        return fate.receivedAbort();
    }
}
