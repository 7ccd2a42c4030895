package org.sperli.runtime;

import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.protocol.Limits;
import org.sperli.protocol.frame.FrameType;
import org.sperli.protocol.payload.Abort;
import org.sperli.protocol.payload.Heartbeat;
import org.sperli.protocol.payload.Hello;
import org.sperli.transport.Frame;
import org.sperli.transport.PeerEvents;

/**
 * What arrives on the connections, on their event loops: HELLO checked, frames to the mailbox by kind, HEARTBEAT
 * read, BYE and ABORT acted on, and every refusal, silence or unexpected close turned into the job's end.
 */
final class InboundFrames implements PeerEvents {
    private final RankConfig config;
    private final Links links;
    private final Mailbox mailbox;
    private final FrameLink frames;
    private final JobFate fate;

    InboundFrames(RankConfig config, Links links, Mailbox mailbox, FrameLink frames, JobFate fate) {
        this.config = config;
        this.links = links;
        this.mailbox = mailbox;
        this.frames = frames;
        this.fate = fate;
    }

    @Override
    public void onHello(int peer, Frame frame) {
        if (frames.trace() != null) {
            frames.trace().helloReceived(peer);
        }
        Hello hello = Hello.read(frame.payload().nioBuffer());
        config.tokenVerifier().verify(hello.token(), peer, config.clock().millis());
        links.helloChecked(peer, hello.features());
    }

    @Override
    public void onFrame(int peer, Frame frame) {
        FrameType type = frame.header().frameType();
        try {
            switch (type) {
                case HELLO -> throw new SperliException(ErrorCode.H1614, "second HELLO from rank " + peer);
                case DATA -> {
                    mailbox.deliver(peer, Mailbox.Kind.DATA, frame);
                    return;
                }
                case COLLECTIVE -> {
                    mailbox.deliver(peer, Mailbox.Kind.COLLECTIVE, frame);
                    return;
                }
                case HEARTBEAT -> Heartbeat.read(frame.payload().nioBuffer());
                case ABORT -> abortedBy(peer, Abort.read(frame.payload().nioBuffer()));
                case BYE -> {
                    mailbox.byeFrom(peer);
                    links.channel(peer).close();
                }
                default -> {
                    mailbox.deliver(peer, Mailbox.Kind.CHECKPOINT, frame);
                    return;
                }
            }
            frame.release();
        } catch (SperliException e) {
            frame.release();
            onRefused(peer, e);
        }
    }

    @Override
    public void onRefused(int peer, SperliException refusal) {
        frames.abort(Abort.Reason.REFUSED, refusal.code(), "rank " + config.rank() + " refused rank " + peer + ": "
                + refusal.reason(), refusal);
    }

    @Override
    public void onSilent(int peer) {
        if (!links.allHellosChecked()) {
            // While the mesh is being built its stall bound judges the peers: a busy machine starting many ranks
            // can hold a peer's heartbeat back for longer than the silence limit. The next idle period counts.
            return;
        }
        frames.abort(Abort.Reason.PEER_LOST, ErrorCode.H1613, "rank " + peer + " silent for " + config.silenceMs()
                + " ms", null);
    }

    /**
     * A close without BYE ends the job with H1613 after {@link Limits#CLOSE_GRACE_MS}, unless an ABORT arrives first:
     * a rank that received the decider's ABORT closes at once, and its close may reach this rank before the ABORT
     * does. Every rank then reports the verdict of the ABORT, not the close it caused (protocol 7.5).
     */
    @Override
    public void onClosed(int peer) {
        if (mailbox.closedFrom(peer) || !fate.running()) {
            return;
        }
        links.channel(peer).schedule(() -> frames.abort(Abort.Reason.PEER_LOST, ErrorCode.H1613, "rank " + peer
                + " closed its connection without BYE", null), Limits.CLOSE_GRACE_MS);
    }

    private void abortedBy(int peer, Abort abort) {
        String why = "rank " + peer + " aborted the job (reason " + abort.reason()
                + (abort.code() != 0 ? ", code H" + abort.code() : "") + "): " + abort.message();
        // A send or receive open at a checkpoint fails it with H1624 on every rank (original, "Checkpoints"). That
        // ABORT is the job's verdict, so it is this rank's code wherever the ABORT finds it: waiting in its own
        // checkpoint, in an earlier call, or still connecting, before its program could call checkpoint at all.
        boolean openAtCheckpoint = abort.reason() == Abort.Reason.CHECKPOINT_FAILED.code()
                && abort.code() == ErrorCode.H1624.number();
        // A lost peer is the job's verdict too: when a rank dies, every survivor sees its close, and which of them
        // judges first is a race of their close graces; every rank reports H1613, the deciders and the others alike.
        boolean peerLost = abort.reason() == Abort.Reason.PEER_LOST.code();
        ErrorCode code = openAtCheckpoint ? ErrorCode.H1624 : peerLost ? ErrorCode.H1613 : ErrorCode.H1612;
        frames.abortedBy(new SperliException(code, why), abort);
    }
}
