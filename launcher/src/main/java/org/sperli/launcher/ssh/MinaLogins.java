package org.sperli.launcher.ssh;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.sshd.client.config.hosts.ConfigFileHostEntryResolver;
import org.apache.sshd.client.config.hosts.HostConfigEntry;
import org.apache.sshd.client.session.ClientSession;
import org.sperli.launcher.job.AgentChannel;
import org.sperli.launcher.job.HostUnreachableException;
import org.sperli.launcher.report.Console;

/** Logins with the built-in client ({@link SshTransport}): one session a host. */
final class MinaLogins implements HostLogins {
    private final SshTransport transport;
    private final Path config;
    /** Read only to explain a name that does not resolve: apart from the client's, which is not asked for that. */
    private ConfigFileHostEntryResolver aliases;

    /** {@code config}: the operator's ssh config (it need not exist), for {@link #aliasHostName}. */
    MinaLogins(SshTransport transport, Path config) {
        this.transport = transport;
        this.config = config;
    }

    @Override
    public HostLogin connect(String host) throws HostUnreachableException {
        return new MinaLogin(host, transport.connect(host));
    }

    @Override
    public HostLogin reconnect(String host, Duration bound) throws HostUnreachableException {
        return new MinaLogin(host, transport.reconnect(host, bound));
    }

    /** Synchronized: the library's config file resolver is not safe for threads (see {@code SshTransport}). */
    @Override
    public synchronized Optional<String> aliasHostName(String name) {
        if (!Files.isRegularFile(config)) {
            return Optional.empty();
        }
        if (aliases == null) {
            aliases = new ConfigFileHostEntryResolver(config);
        }
        HostConfigEntry entry;
        try {
            entry = aliases.resolveEffectiveHost(name, 0, null, null, null, null);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
        String hostName = entry == null ? null : entry.getHostName();
        return hostName == null || hostName.isBlank() || hostName.equals(name) ? Optional.empty()
                : Optional.of(hostName);
    }

    @Override
    public void close() {
        transport.close();
    }

    /** One logged-in session. */
    private record MinaLogin(String host, ClientSession session) implements HostLogin {
        @Override
        public String describe() {
            return "connected to " + host + " as " + session.getUsername();
        }

        @Override
        public boolean isOpen() {
            return session.isOpen();
        }

        @Override
        public CompletableFuture<Boolean> answersWithin(Duration bound) {
            return SshTransport.answersWithin(session, bound);
        }

        @Override
        public RemoteShell shell() {
            return new MinaShell(session);
        }

        @Override
        public AgentChannel startAgent(String host, String commandLine, Console console) throws IOException {
            return SshAgent.start(host, session, commandLine, console);
        }

        @Override
        public void closeNow() {
            SshTransport.closeNow(session);
        }

        @Override
        public void close() {
            SshTransport.closeQuietly(session);
        }
    }
}
