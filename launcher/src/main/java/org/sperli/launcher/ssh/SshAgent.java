package org.sperli.launcher.ssh;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.apache.sshd.client.channel.ChannelExec;
import org.apache.sshd.client.session.ClientSession;
import org.sperli.launcher.job.AgentChannel;
import org.sperli.launcher.job.AgentLines;
import org.sperli.launcher.report.Console;

/**
 * A host agent started over the host's one SSH session: one exec channel, whatever the number of ranks, so that an
 * OpenSSH server's {@code MaxSessions} (10 by default) never limits the ranks of a host. Its stdin and stdout carry the
 * control stream, its stderr the agent's own lines. When the channel or the session ends, the agent reads the end of
 * its input and ends its ranks.
 */
final class SshAgent implements AgentChannel {
    private final String host;
    private final ClientSession session;
    private final ChannelExec channel;

    private SshAgent(String host, ClientSession session, ChannelExec channel) {
        this.host = host;
        this.session = session;
        this.channel = channel;
    }

    /** Opens the channel that runs {@code commandLine} (the agent) on {@code session}'s host. */
    static SshAgent start(String host, ClientSession session, String commandLine, Console console)
            throws IOException {
        ChannelExec channel = session.createExecChannel(commandLine);
        try {
            channel.open().verify(SshTransport.CHANNEL_OPEN_TIMEOUT);
        } catch (IOException | RuntimeException e) {
            channel.close(true);
            throw e;
        }
        AgentLines.pump(channel.getInvertedErr(), host, console);
        return new SshAgent(host, session, channel);
    }

    @Override
    public InputStream fromAgent() {
        return channel.getInvertedOut();
    }

    @Override
    public OutputStream toAgent() {
        return channel.getInvertedIn();
    }

    @Override
    public String where() {
        return "ssh " + host;
    }

    @Override
    public CompletableFuture<Boolean> reachable(Duration bound) {
        return SshTransport.answersWithin(session, bound);
    }

    @Override
    public void close() {
        channel.close(true);
    }
}
