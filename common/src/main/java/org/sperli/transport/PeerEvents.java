package org.sperli.transport;

import org.sperli.SperliException;

/** What the pipeline of one connection reports to the rank's runtime. Called on the connection's event loop. */
public interface PeerEvents {
    /** The first frame was a HELLO; the receiver checks it and throws SperliException (H1614) to refuse. */
    void onHello(int peer, Frame hello);

    /** A frame after HELLO; ownership passes to the callee, which releases it. */
    void onFrame(int peer, Frame frame);

    /** A refusal on this connection (header, payload, HELLO): the job must abort with its code. */
    void onRefused(int peer, SperliException refusal);

    /** No frame delivered within the silence limit. */
    void onSilent(int peer);

    /** The connection closed. */
    void onClosed(int peer);
}
