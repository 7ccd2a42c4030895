package org.sperli.launcher.slurm;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import javax.net.ssl.SSLSocket;
import org.sperli.launcher.job.AgentChannel;

/**
 * A host agent that called home: its control stream is the TLS connection ({@link CallHomeServer}). Closing it is the
 * end of the agent's input, which ends the node's ranks as the end of stdin does over SSH.
 */
final class SocketAgent implements AgentChannel {
    private final String node;
    private final SSLSocket socket;
    private final InputStream in;
    private final OutputStream out;

    SocketAgent(String node, SSLSocket socket) throws IOException {
        this.node = node;
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
    }

    @Override
    public InputStream fromAgent() {
        return in;
    }

    @Override
    public OutputStream toAgent() {
        return out;
    }

    @Override
    public String where() {
        return "srun " + node;
    }

    @Override
    public CompletableFuture<Boolean> reachable(Duration bound) {
        return CompletableFuture.completedFuture(!socket.isClosed());
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // Closed either way.
        }
    }
}
