package org.sperli.launcher.slurm;

import java.io.IOException;
import java.net.Socket;
import jdk.net.ExtendedSocketOptions;

/**
 * The launcher's own liveness of a called-home agent, whatever srun says (srun can hang, or exit 0, when a step daemon
 * dies): a killed agent closes its connection at once, and a node that vanished without a word (power, network)
 * is found by TCP keepalive probes after {@link #IDLE_S} s of silence, {@link #PROBES} of them {@link #INTERVAL_S} s
 * apart.
 * The connection then fails, which is the loss of the node's stream: its ranks move.
 */
final class Liveness {
    static final int IDLE_S = 5;
    static final int INTERVAL_S = 2;
    static final int PROBES = 3;

    private Liveness() {
    }

    static void watch(Socket socket) throws IOException {
        socket.setKeepAlive(true);
        try {
            socket.setOption(ExtendedSocketOptions.TCP_KEEPIDLE, IDLE_S);
            socket.setOption(ExtendedSocketOptions.TCP_KEEPINTERVAL, INTERVAL_S);
            socket.setOption(ExtendedSocketOptions.TCP_KEEPCOUNT, PROBES);
        } catch (UnsupportedOperationException e) {
            // A platform without these options keeps the system's keepalive times; the agent's own end still shows.
        }
    }
}
