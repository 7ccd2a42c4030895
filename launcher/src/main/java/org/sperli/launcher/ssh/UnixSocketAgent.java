package org.sperli.launcher.ssh;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.sshd.agent.SshAgent;
import org.apache.sshd.agent.SshAgentFactory;
import org.apache.sshd.agent.SshAgentServer;
import org.apache.sshd.agent.common.AbstractAgentProxy;
import org.apache.sshd.common.FactoryManager;
import org.apache.sshd.common.channel.ChannelFactory;
import org.apache.sshd.common.session.ConnectionService;
import org.apache.sshd.common.session.Session;
import org.apache.sshd.common.util.buffer.Buffer;
import org.apache.sshd.common.util.buffer.ByteArrayBuffer;
import org.sperli.jvm.Clock;

/**
 * The operator's {@code ssh-agent}, reached through the Unix domain socket that {@code SSH_AUTH_SOCK} names (Java 16
 * and later open those without native code): MINA SSHD asks it for its keys and has it sign the login, so a
 * passphrase-protected key that {@code ssh-add} loaded, a hardware key the agent fronts, or a certificate it holds
 * serves the launcher as it serves {@code ssh}. Every request and reply is bounded by {@link #REPLY_TIMEOUT} and
 * {@link #MAX_REPLY}: an agent that hangs or floods must not hold a launch.
 */
final class UnixSocketAgent extends AbstractAgentProxy {
    /** How long the agent has to answer one request (a hardware key waiting for a touch needs some seconds). */
    static final Duration REPLY_TIMEOUT = Duration.ofSeconds(30);
    /** The largest reply taken (OpenSSH's agent refuses messages over 256 KiB itself). */
    static final int MAX_REPLY = 256 * 1024;

    private final SocketChannel channel;
    private final Selector selector;
    private final Clock clock;

    private UnixSocketAgent(SocketChannel channel, Selector selector, Clock clock) {
        super(null);
        this.channel = channel;
        this.selector = selector;
        this.clock = clock;
    }

    /** Connects to the agent at {@code socket}; {@code clock} bounds its replies. */
    static UnixSocketAgent connect(Path socket, Clock clock) throws IOException {
        SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            channel.connect(UnixDomainSocketAddress.of(socket));
            channel.configureBlocking(false);
            Selector selector = Selector.open();
            channel.register(selector, SelectionKey.OP_READ);
            return new UnixSocketAgent(channel, selector, clock);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /** A factory that gives every login a connection of its own to the agent at {@code socket}. */
    static SshAgentFactory factory(Path socket, Clock clock) {
        return new SshAgentFactory() {
            @Override
            public List<ChannelFactory> getChannelForwardingFactories(FactoryManager manager) {
                return List.of();
            }

            @Override
            public SshAgent createClient(Session session, FactoryManager manager) throws IOException {
                return connect(socket, clock);
            }

            @Override
            public SshAgentServer createServer(ConnectionService service) {
                throw new UnsupportedOperationException("the launcher forwards no agent");
            }
        };
    }

    @Override
    protected synchronized Buffer request(Buffer buffer) throws IOException {
        ByteBuffer out = ByteBuffer.wrap(buffer.array(), buffer.rpos(), buffer.available());
        long deadline = clock.nanoTime() + REPLY_TIMEOUT.toNanos();
        while (out.hasRemaining()) {
            if (channel.write(out) == 0) {
                // The socket's buffer is full (a request is a few hundred bytes: rare): wait until it takes more.
                SelectionKey key = channel.keyFor(selector);
                key.interestOps(SelectionKey.OP_WRITE);
                await(deadline);
                key.interestOps(SelectionKey.OP_READ);
            }
        }
        ByteBuffer length = ByteBuffer.allocate(4);
        read(length, deadline);
        int n = length.flip().getInt();
        if (n < 1 || n > MAX_REPLY) {
            throw new IOException("ssh-agent replied with a message of " + Integer.toUnsignedString(n) + " bytes");
        }
        ByteBuffer body = ByteBuffer.allocate(n);
        read(body, deadline);
        return new ByteArrayBuffer(body.array());
    }

    private void read(ByteBuffer into, long deadline) throws IOException {
        while (into.hasRemaining()) {
            int n = channel.read(into);
            if (n < 0) {
                throw new IOException("ssh-agent closed its socket");
            }
            if (n == 0) {
                await(deadline);
            }
        }
    }

    private void await(long deadline) throws IOException {
        long left = deadline - clock.nanoTime();
        if (left <= 0) {
            throw new IOException("ssh-agent did not answer within " + REPLY_TIMEOUT.toSeconds() + " s");
        }
        selector.select(Math.max(1, left / 1_000_000));
        selector.selectedKeys().clear();
    }

    @Override
    public boolean isOpen() {
        return channel.isOpen();
    }

    @Override
    public void close() throws IOException {
        try {
            super.close();
        } finally {
            selector.close();
            channel.close();
        }
    }
}
