package org.sperli.launcher.ssh;

import java.net.SocketAddress;
import java.nio.file.Path;
import java.security.PublicKey;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.sshd.client.keyverifier.KnownHostsServerKeyVerifier;
import org.apache.sshd.client.keyverifier.ServerKeyVerifier;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.config.keys.KeyUtils;

/**
 * Strict host-key checking against {@code known_hosts}: a known key is accepted, a changed key is always refused, an
 * unknown key is refused unless new keys are accepted ({@code --accept-new-host-keys}), in which case it is recorded in
 * the file. Why a key was refused is kept here per session ({@link #refusal}) so the operator gets one clear line
 * instead of "server key did not validate". Not as a session attribute: the failed key exchange closes the session
 * at the same time, and a closed session may have dropped its attributes before the caller asks.
 */
final class HostKeyPolicy implements ServerKeyVerifier {
    private final KnownHostsServerKeyVerifier knownHosts;
    private final Map<ClientSession, String> refusals = new ConcurrentHashMap<>();

    HostKeyPolicy(Path knownHostsFile, boolean acceptNew) {
        ServerKeyVerifier unknown = (session, remote, key) -> {
            if (acceptNew) {
                return true;
            }
            refusals.put(session, "host key " + describe(key) + " of " + remote + " is not in "
                    + knownHostsFile + "; check it, then rerun with --accept-new-host-keys to record it");
            return false;
        };
        this.knownHosts = new KnownHostsServerKeyVerifier(unknown, knownHostsFile);
        this.knownHosts.setModifiedServerKeyAcceptor((session, remote, entry, expected, actual) -> {
            refusals.put(session, "host key of " + remote + " CHANGED: " + knownHostsFile + " has "
                    + describe(expected) + ", the host shows " + describe(actual)
                    + "; if the change is expected, remove the old line (" + entry.getConfigLine() + ")");
            return false;
        });
    }

    /**
     * Synchronized because hosts are prepared at once: the SSH library re-reads {@code known_hosts} the way it re-reads
     * the config file (see {@code SshTransport.resolve}), so a check made meanwhile could find no entries.
     */
    @Override
    public synchronized boolean verifyServerKey(ClientSession session, SocketAddress remote, PublicKey key) {
        return knownHosts.verifyServerKey(session, remote, key);
    }

    /** Why this policy refused the session's host key, or null when it did not; asked once per session. */
    String refusal(ClientSession session) {
        return refusals.remove(session);
    }

    private static String describe(PublicKey key) {
        return KeyUtils.getKeyType(key) + " " + KeyUtils.getFingerPrint(key);
    }
}
