package org.sperli.bench;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.cert.X509Certificate;
import java.util.concurrent.atomic.AtomicLong;
import org.sperli.SperliException;
import org.sperli.protocol.frame.FrameHeader;
import org.sperli.protocol.frame.FrameType;
import org.sperli.protocol.frame.ReceiverContext;
import org.sperli.protocol.payload.CollectiveHeader;
import org.sperli.protocol.payload.Heartbeat;
import org.sperli.protocol.payload.Hello;
import org.sperli.transport.Frame;
import org.sperli.transport.OutboundFrame;
import org.sperli.transport.PeerEvents;
import org.sperli.transport.PeerPipeline;

/**
 * One rank of the {@link PeerFarm}, as rank 0 sees it over its one connection: after the handshake it checks that the
 * dialer's certificate names rank 0, puts the project's own frame pipeline behind TLS (the same decoder, header
 * checks, heartbeats and silence judgment as a rank's) and sends HELLO with its own join token. Then it is a non-root
 * rank of the star: its contribution to the first call goes out once rank 0's HELLO is in, each further one when the
 * root's answer to the call before arrives ({@link ScaleSchedule}), and a BYE is answered with BYE and a close.
 *
 * <p>It does not verify rank 0's join token: the real rank's side, which is measured, does every check a rank does;
 * this double only needs to be accepted by it.
 */
final class FarmPeer implements PeerEvents {
    private static final int ROOT = 0;
    private static final long INCARNATION = 1;

    private final PeerFarm farm;
    private final int rank;
    private final byte[] token;
    private final AtomicLong heartbeats = new AtomicLong();
    private volatile Channel channel;

    FarmPeer(PeerFarm farm, int rank, byte[] token) {
        this.farm = farm;
        this.rank = rank;
        this.token = token;
    }

    int rank() {
        return rank;
    }

    /** The handshake's end, on the connection's event loop. */
    void handshaken(Channel ch, X509Certificate cert, Throwable failure) {
        if (failure != null) {
            fail(ch, "TLS handshake failed: " + failure.getMessage());
            return;
        }
        int named;
        try {
            named = farm.certificateCheck().rankOf(cert);
        } catch (SperliException e) {
            fail(ch, e.getMessage());
            return;
        }
        if (named != ROOT) {
            fail(ch, "the dialer's certificate names rank " + named + ", expected rank 0");
            return;
        }
        channel = ch;
        PeerPipeline.established(ch, ROOT, new ReceiverContext(farm.job(), farm.size(), rank, ROOT, INCARNATION),
                this, farm.silenceMs(), this::heartbeat, farm.heartbeats(ch.eventLoop()), farm.arrays());
        byte[] hello = Hello.v1(token).toBytes();
        ch.writeAndFlush(OutboundFrame.of(header(FrameType.HELLO, hello.length), hello));
        farm.handshaken();
    }

    @Override
    public void onHello(int peer, Frame hello) {
        farm.helloChecked();
        contribute(1);
    }

    @Override
    public void onFrame(int peer, Frame frame) {
        try {
            switch (frame.header().frameType()) {
                case COLLECTIVE -> answered(CollectiveHeader.read(frame.payload().nioBuffer()));
                case BYE -> {
                    Channel ch = channel;
                    ch.writeAndFlush(OutboundFrame.empty(header(FrameType.BYE, 0)))
                            .addListener(ChannelFutureListener.CLOSE);
                    farm.byeAnswered();
                }
                case ABORT -> fail(channel, "rank 0 sent ABORT");
                default -> {
                    // HEARTBEAT is life, which the pipeline has counted already; DATA is not in the schedule.
                }
            }
        } catch (SperliException e) {
            fail(channel, e.getMessage());
        } finally {
            frame.release();
        }
    }

    @Override
    public void onRefused(int peer, SperliException refusal) {
        fail(channel, refusal.getMessage());
    }

    @Override
    public void onSilent(int peer) {
        if (!farm.allHellosChecked()) {
            // As a rank does (runtime.InboundFrames): while the mesh is built its stall bound judges, since a busy
            // machine making thousands of handshakes can hold a heartbeat back longer than the silence limit.
            return;
        }
        fail(channel, "rank 0 was silent for the silence limit");
    }

    @Override
    public void onClosed(int peer) {
        farm.closed();
    }

    private void answered(CollectiveHeader h) {
        if (h.phase() == CollectiveHeader.FROM_ROOT && h.sequence() < farm.schedule().calls()) {
            contribute(h.sequence() + 1);
        }
    }

    private void contribute(long sequence) {
        CollectiveHeader h = farm.schedule().towardRoot(sequence);
        int data = farm.schedule().isAllreduce(sequence) ? ScaleSchedule.ALLREDUCE_BYTES : 0;
        ByteBuffer payload = ByteBuffer.allocate(CollectiveHeader.LENGTH + data).order(ByteOrder.LITTLE_ENDIAN);
        h.write(payload);
        payload.position(CollectiveHeader.LENGTH);
        if (data > 0) {
            payload.putDouble(1.0);
        }
        channel.writeAndFlush(OutboundFrame.of(header(FrameType.COLLECTIVE, payload.capacity()), payload.array()));
    }

    private OutboundFrame heartbeat() {
        return OutboundFrame.of(header(FrameType.HEARTBEAT, Heartbeat.LENGTH),
                new Heartbeat(heartbeats.incrementAndGet()).toBytes());
    }

    private FrameHeader header(FrameType type, long length) {
        return FrameHeader.of(type, length, farm.job(), rank, ROOT, INCARNATION, 0, 0);
    }

    private void fail(Channel ch, String why) {
        farm.failed("farm rank " + rank + ": " + why);
        if (ch != null) {
            ch.close();
        }
    }
}
