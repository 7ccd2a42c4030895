package org.sperli.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.sperli.protocol.frame.FrameHeader;
import org.sperli.protocol.frame.FrameType;
import org.sperli.protocol.frame.ReceiverContext;
import org.sperli.protocol.payload.Heartbeat;
import org.sperli.testing.ManualClock;

/**
 * One established connection as a rank builds it ({@link PeerPipeline#established}: every handler behind TLS, TLS
 * left out) on an {@link EmbeddedChannel} whose loop reads a {@link ManualClock}. A test moves the clock and
 * {@link #runDue runs} what fell due, writes the peer's bytes in, and reads the frames this rank wrote out: the
 * silence limit, the heartbeat interval and the close grace are then judged exactly when the clock says.
 */
public final class EmbeddedConnection {
    private final EmbeddedChannel channel;
    private final PeerChannel peerChannel;
    private final ReceiverContext context;

    private EmbeddedConnection(EmbeddedChannel channel, PeerChannel peerChannel, ReceiverContext context) {
        this.channel = channel;
        this.peerChannel = peerChannel;
        this.context = context;
    }

    /**
     * The connection of {@code context.ownRank()} to {@code context.peerRank()} under the silence limit
     * {@code silenceMs}, telling {@code events}; its loop, heartbeat timer and idle handler read {@code clock}.
     */
    public static EmbeddedConnection established(ManualClock clock, ReceiverContext context, PeerEvents events,
                                                 long silenceMs) {
        EmbeddedChannel ch = EmbeddedChannel.builder().ticker(ClockTicker.of(clock)).build();
        // As after the handshake: the setup's error handler is in place, and established takes it out.
        ch.pipeline().addLast(SetupErrors.NAME, SetupErrors.INSTANCE);
        AtomicLong beats = new AtomicLong();
        PeerChannel peer = PeerPipeline.established(ch, context.peerRank(), context, events, silenceMs,
                () -> OutboundFrame.of(FrameHeader.of(FrameType.HEARTBEAT, Heartbeat.LENGTH, context.jobId(),
                        context.ownRank(), context.peerRank(), context.incarnation(), 0, 0),
                        new Heartbeat(beats.incrementAndGet()).toBytes()),
                new Heartbeats(ch.eventLoop(), clock), new RecycledArrays());
        return new EmbeddedConnection(ch, peer, context);
    }

    /** The connection as the runtime sees it. */
    public PeerChannel peerChannel() {
        return peerChannel;
    }

    /** The channel underneath. */
    public EmbeddedChannel channel() {
        return channel;
    }

    /** Runs the tasks of this connection's loop, those the clock has made due included. */
    public void runDue() {
        channel.runPendingTasks();
    }

    /** {@code bytes} arrive from the peer (a whole frame, or any piece of one). */
    public void receive(byte[] bytes) {
        channel.writeInbound(Unpooled.wrappedBuffer(bytes));
    }

    /** A whole frame of {@code type} arrives from the peer. */
    public void receive(FrameType type, byte[] payload) {
        receive(frame(type, payload));
    }

    /** The bytes of a frame of {@code type} from the peer to this rank. */
    public byte[] frame(FrameType type, byte[] payload) {
        FrameHeader header = FrameHeader.of(type, payload.length, context.jobId(), context.peerRank(),
                context.ownRank(), context.incarnation(), 0, 0);
        byte[] frame = new byte[FrameHeader.LENGTH + payload.length];
        header.write(ByteBuffer.wrap(frame), 0);
        System.arraycopy(payload, 0, frame, FrameHeader.LENGTH, payload.length);
        return frame;
    }

    /** The peer's close without a word: the pipeline hears the connection go inactive, as on a TCP close. */
    public void peerCloses() {
        channel.pipeline().fireChannelInactive();
        runDue();
    }

    /** A frame this rank wrote: its header and payload. */
    public record Sent(FrameHeader header, byte[] payload) {
    }

    /** The frames this rank wrote since the last call, in order. */
    public List<Sent> sent() {
        // The encoder writes a small frame as one buffer and a large one as header and payload: read the bytes as a
        // peer would, whatever buffers they came in.
        ByteBuf wire = Unpooled.buffer();
        ByteBuf piece;
        while ((piece = channel.readOutbound()) != null) {
            wire.writeBytes(piece);
            piece.release();
        }
        List<Sent> frames = new ArrayList<>();
        while (wire.isReadable()) {
            byte[] headerBytes = new byte[FrameHeader.LENGTH];
            wire.readBytes(headerBytes);
            FrameHeader h = FrameHeader.read(ByteBuffer.wrap(headerBytes), 0);
            byte[] payload = new byte[Math.toIntExact(h.length())];
            wire.readBytes(payload);
            frames.add(new Sent(h, payload));
        }
        wire.release();
        return frames;
    }

    /** The types of the frames this rank wrote since the last call. */
    public List<FrameType> sentTypes() {
        return sent().stream().map(s -> s.header().frameType()).toList();
    }
}
