package org.sperli.transport;

import org.sperli.SperliException;

/** What a test that looks at a connection's bytes, not at the runtime, tells the runtime: nothing; frames are dropped. */
class IgnoredPeerEvents implements PeerEvents {
    @Override
    public void onHello(int peer, Frame hello) {
        // The gate that called releases it.
    }

    @Override
    public void onFrame(int peer, Frame frame) {
        frame.release();
    }

    @Override
    public void onRefused(int peer, SperliException refusal) {
    }

    @Override
    public void onSilent(int peer) {
    }

    @Override
    public void onClosed(int peer) {
    }
}
