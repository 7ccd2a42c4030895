package org.sperli.runtime;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.protocol.payload.Abort;
import org.sperli.protocol.payload.CollectiveHeader;

/** The rank's own {@link CollectivePort}: COLLECTIVE frames over its TLS connections ({@link CollectiveWire}). */
final class WirePort implements CollectivePort {
    private final FrameLink frames;
    private final CollectiveWire wire;
    /** The sends of the current call; calls are serialised by the engine. */
    private final List<SendRequest> sends = new ArrayList<>();

    WirePort(FrameLink frames, CollectiveWire wire) {
        this.frames = frames;
        this.wire = wire;
    }

    @Override
    public int rank() {
        return frames.rank();
    }

    @Override
    public int size() {
        return frames.size();
    }

    @Override
    public void begin() {
        sends.clear();
    }

    @Override
    public void send(int dest, CollectiveHeader header, ByteBuffer data) {
        sends.add(wire.send(dest, CollectiveWire.payload(header, data)));
    }

    @Override
    public void awaitSends() {
        CollectiveWire.awaitAll(sends);
        sends.clear();
    }

    @Override
    public Incoming receive(int peer, CollectiveCall call, int phase) {
        return wire.receive(peer, call, phase);
    }

    @Override
    public Incoming receiveEither(int peer, CollectiveCall call, int phase, int otherPhase) {
        return wire.receive(peer, call, phase, otherPhase);
    }

    @Override
    public SperliException mismatch(CollectiveCall call, int peer, String fault) {
        return wire.mismatch(call, peer, fault);
    }

    @Override
    public SperliException endJob(Abort.Reason reason, ErrorCode code, CollectiveCall call, String fault) {
        return wire.endJob(reason, code, call, fault);
    }
}
