package org.sperli.launcher.ssh;

import java.io.IOException;
import java.security.KeyPair;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.sshd.client.SshClient;
import org.apache.sshd.client.config.hosts.ConfigFileHostEntryResolver;
import org.apache.sshd.client.config.hosts.HostConfigEntry;
import org.apache.sshd.client.config.hosts.HostConfigEntryResolver;
import org.apache.sshd.client.future.AuthFuture;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.SshConstants;
import org.apache.sshd.common.future.CancelOption;
import org.apache.sshd.common.future.GlobalRequestFuture;
import org.apache.sshd.common.util.buffer.Buffer;
import org.apache.sshd.core.CoreModuleProperties;
import org.apache.sshd.sftp.SftpModuleProperties;
import org.sperli.jvm.Clock;
import org.sperli.launcher.exit.LauncherException;
import org.sperli.launcher.job.HostUnreachableException;

/**
 * The one SSH client of a launcher run (Apache MINA SSHD): the user's keys from the SSH directory, its {@code config}
 * for HostName, Port, User and IdentityFile, strict {@code known_hosts} checking ({@link HostKeyPolicy}), and every
 * connect, login and channel open bounded by a named {@link Duration}.
 *
 * <p>A connect that fails or times out means the host cannot be reached ({@link HostUnreachableException}: its ranks
 * move). A refused host key or login is the operator's to fix and ends the run ({@link LauncherException}, exit 4).
 */
public final class SshTransport implements AutoCloseable {
    /** TCP connect and SSH session set-up. */
    public static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(15);
    /** Key exchange, host-key check and user authentication. */
    public static final Duration AUTH_TIMEOUT = Duration.ofSeconds(20);
    /** Opening an exec or SFTP channel. */
    public static final Duration CHANNEL_OPEN_TIMEOUT = Duration.ofSeconds(15);
    /** A small remote command (kill) to finish. */
    public static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(10);
    /** Keep-alive requests on an otherwise quiet session, so a dead host is noticed and idle links stay up. */
    public static final Duration HEARTBEAT_INTERVAL = Duration.ofSeconds(15);
    /** Keep-alive replies missed before the session counts as lost (about a minute). */
    public static final int HEARTBEAT_NO_REPLY_MAX = 4;
    /** Closing the client at the end of the run. */
    public static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);
    /** The global request that asks a session whether it is still there (OpenSSH's name; any reply will do). */
    private static final String KEEPALIVE = "keepalive@openssh.com";

    private static final int DEFAULT_SSH_PORT = 22;

    private final SshClient client;
    private final SshSettings settings;
    private final HostKeyPolicy hostKeys;
    private final UserKeys keys;
    private final Consumer<String> details;

    private SshTransport(SshClient client, SshSettings settings, HostKeyPolicy hostKeys, UserKeys keys,
                         Consumer<String> details) {
        this.client = client;
        this.settings = settings;
        this.hostKeys = hostKeys;
        this.keys = keys;
        this.details = details;
    }

    /** Starts the client; {@code notes} gets messages about skipped keys, and about keys only an agent could use. */
    public static SshTransport start(SshSettings settings, Consumer<String> notes) {
        return start(settings, notes, notes, Clock.SYSTEM);
    }

    /**
     * Starts the client; {@code details} gets messages about skipped keys (shown with {@code -v}), {@code warnings}
     * one line for each passphrase-protected key that no agent holds (always shown: the login may fail for it);
     * {@code clock} bounds the agent's replies.
     */
    public static SshTransport start(SshSettings settings, Consumer<String> details, Consumer<String> warnings,
                                     Clock clock) {
        SshClient client = SshClient.setUpDefaultClient();
        HostKeyPolicy hostKeys = new HostKeyPolicy(settings.knownHosts(), settings.acceptNewHostKeys());
        client.setServerKeyVerifier(hostKeys);
        UserKeys keys = UserKeys.load(settings.sshDir(), details);
        // As ssh: the agent's keys first (MINA asks the agent factory before the key files), then the files.
        if (settings.agentSocketOrNull() != null) {
            client.setAgentFactory(UnixSocketAgent.factory(settings.agentSocketOrNull(), clock));
        }
        AgentKeys.sayUnusable(keys.encrypted(), settings.agentSocketOrNull(), clock, details, warnings);
        client.setKeyIdentityProvider(keys.provider());
        client.setHostConfigEntryResolver(java.nio.file.Files.exists(settings.config())
                ? new ConfigFileHostEntryResolver(settings.config()) : HostConfigEntryResolver.EMPTY);
        // A rank may compute for hours without output: no idle timeout, but keep-alives that notice a dead host.
        CoreModuleProperties.IDLE_TIMEOUT.set(client, Duration.ZERO);
        CoreModuleProperties.HEARTBEAT_INTERVAL.set(client, HEARTBEAT_INTERVAL);
        CoreModuleProperties.HEARTBEAT_NO_REPLY_MAX.set(client, HEARTBEAT_NO_REPLY_MAX);
        CoreModuleProperties.AUTH_TIMEOUT.set(client, AUTH_TIMEOUT);
        SftpModuleProperties.SFTP_CHANNEL_OPEN_TIMEOUT.set(client, CHANNEL_OPEN_TIMEOUT);
        client.start();
        return new SshTransport(client, settings, hostKeys, keys, details);
    }

    /** A logged-in session to {@code host} (as the config resolves it). */
    public ClientSession connect(String host) throws HostUnreachableException {
        return connect(host, CONNECT_TIMEOUT, AUTH_TIMEOUT);
    }

    /**
     * As {@link #connect(String)}, with the connect and the login each bounded by {@code bound}: for a host whose
     * session stopped answering in the middle of a job, where a short probe decides whether its ranks must move.
     */
    public ClientSession reconnect(String host, Duration bound) throws HostUnreachableException {
        return connect(host, bound, bound);
    }

    private ClientSession connect(String host, Duration connectTimeout, Duration authTimeout)
            throws HostUnreachableException {
        ClientSession session;
        HostConfigEntry entry = resolve(host);
        try {
            session = client.connect(entry, null, null)
                    .verify(connectTimeout, CancelOption.CANCEL_ON_TIMEOUT)
                    .getSession();
        } catch (IOException e) {
            throw new HostUnreachableException(host, reason(e), e);
        }
        for (KeyPair certified : ConfigCertificates.of(entry, keys, details)) {
            session.addPublicKeyIdentity(certified);
        }
        AuthFuture auth;
        boolean done;
        try {
            auth = session.auth();
            done = auth.await(authTimeout, CancelOption.CANCEL_ON_TIMEOUT);
        } catch (IOException e) {
            closeQuietly(session);
            throwIfHostKeyRefused(host, session, e);
            throw new HostUnreachableException(host, reason(e), e);
        }
        if (done && auth.isSuccess()) {
            return session;
        }
        closeQuietly(session);
        throwIfHostKeyRefused(host, session, auth.getException());
        if (!done) {
            throw new HostUnreachableException(host, "no login within " + authTimeout.toSeconds() + " s", null);
        }
        Throwable e = auth.getException();
        throw LauncherException.startFailed("SSH login to " + host + " as " + user(session) + " failed: "
                + (e == null ? "no key was accepted" : reason(e)) + " (keys: " + (settings.agentSocketOrNull() == null
                ? "" : "ssh-agent at " + settings.agentSocketOrNull() + ", ") + settings.sshDir()
                + "/id_* with their -cert.pub, and IdentityFile and CertificateFile of its config)", e);
    }

    /**
     * The host key refusal of {@code session}, if {@link HostKeyPolicy} made one: the key exchange it failed may end
     * the session while the login is asked for, and that is no unreachable host but a key the operator must check.
     */
    private void throwIfHostKeyRefused(String host, ClientSession session, Throwable cause) {
        String refusal = hostKeys.refusal(session);
        if (refusal != null) {
            throw LauncherException.startFailed("SSH to " + host + " refused: " + refusal, cause);
        }
    }

    /**
     * The config's view of {@code host} (HostName, Port, User, IdentityFile), with port 22 and the default user where
     * it names none. Asked with no port and no user, because MINA SSHD lets given values override the config, as
     * {@code ssh -p} does. Synchronized because hosts are prepared at once and the SSH library's config file
     * resolver is not safe for that: between re-reading the file and publishing the entries it answers with no entries
     * at all, and a host then fell back to port 22 ("Connection refused").
     */
    private synchronized HostConfigEntry resolve(String host) {
        HostConfigEntry entry;
        try {
            entry = client.getHostConfigEntryResolver().resolveEffectiveHost(host, 0, null, null, null, null);
        } catch (IOException e) {
            throw LauncherException.startFailed("cannot read " + settings.config() + ": " + reason(e), e);
        }
        if (entry == null) {
            entry = new HostConfigEntry(host, host, DEFAULT_SSH_PORT, settings.defaultUser());
        }
        if (entry.getPort() <= 0) {
            entry.setPort(DEFAULT_SSH_PORT);
        }
        if (entry.getUsername() == null || entry.getUsername().isEmpty()) {
            entry.setUsername(settings.defaultUser());
        }
        return entry;
    }

    @Override
    public void close() {
        try {
            client.close(false).await(CLOSE_TIMEOUT);
        } catch (IOException e) {
            client.close(true);
        }
    }

    /**
     * Whether {@code session} still answers: a keep-alive request whose reply (success or failure alike) comes within
     * {@code bound}. A session to a host cut from the network stays "open" until the keep-alives give up, which
     * takes minutes; a rank started through it would wait as long.
     */
    static boolean answers(ClientSession session, Duration bound) {
        return answersWithin(session, bound).join();
    }

    /** As {@link #answers}, without blocking: completes with the answer, false at the latest after {@code bound}. */
    static CompletableFuture<Boolean> answersWithin(ClientSession session, Duration bound) {
        CompletableFuture<Boolean> answered = new CompletableFuture<>();
        if (!session.isOpen() || !session.isAuthenticated()) {
            answered.complete(false);
            return answered;
        }
        try {
            Buffer request = session.createBuffer(SshConstants.SSH_MSG_GLOBAL_REQUEST, 32);
            request.putString(KEEPALIVE);
            request.putBoolean(true);
            GlobalRequestFuture reply = session.request(request, KEEPALIVE, null);
            reply.addListener(done -> answered.complete(true));
        } catch (IOException | RuntimeException e) {
            answered.complete(false);
        }
        return answered.completeOnTimeout(false, bound.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Closes {@code session} at once, without waiting for the peer: a dead host must not hold the caller. */
    static void closeNow(ClientSession session) {
        session.close(true);
    }

    static void closeQuietly(ClientSession session) {
        try {
            session.close(true).await(CLOSE_TIMEOUT);
        } catch (IOException e) {
            // Closing is best effort: the client closes every session at the end of the run anyway.
        }
    }

    private static String user(ClientSession session) {
        String user = session.getUsername();
        return user == null ? "?" : user;
    }

    /** The innermost message: MINA wraps the useful one (connection refused, timeout) in a few layers. */
    static String reason(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        String message = t.getMessage();
        return message == null || message.isBlank() ? t.getClass().getSimpleName() : message;
    }
}
