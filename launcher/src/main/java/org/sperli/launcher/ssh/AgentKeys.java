package org.sperli.launcher.ssh;

import java.io.IOException;
import java.nio.file.Path;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.config.keys.OpenSshCertificate;
import org.sperli.jvm.Clock;

/**
 * What the operator's {@code ssh-agent} holds, asked once at the launcher's start so that a passphrase-protected key
 * file the agent does not hold is said at once, in one line naming the file and {@code ssh-add}: the launcher never
 * asks for a passphrase, and a login that fails later for want of that key would not say why.
 */
final class AgentKeys {
    private AgentKeys() {
    }

    /**
     * Says each of {@code encrypted} that the agent at {@code socketOrNull} does not hold on {@code warnings}, and
     * what the agent holds on {@code details}.
     */
    static void sayUnusable(List<UserKeys.Encrypted> encrypted, Path socketOrNull, Clock clock,
                            Consumer<String> details, Consumer<String> warnings) {
        List<PublicKey> held = List.of();
        String missing;
        if (socketOrNull == null) {
            missing = "no ssh-agent runs (" + SshSettings.AGENT_SOCKET_VARIABLE + " is not set)";
        } else {
            missing = "the ssh-agent at " + socketOrNull + " does not hold it";
            try {
                held = held(socketOrNull, clock);
                details.accept("ssh-agent at " + socketOrNull + " holds " + held.size() + " key"
                        + (held.size() == 1 ? "" : "s"));
            } catch (IOException | RuntimeException e) {
                missing = "no ssh-agent answers at " + socketOrNull + " (" + SshTransport.reason(e) + ")";
            }
        }
        for (UserKeys.Encrypted key : encrypted) {
            if (key.publicKey().isPresent() && holds(held, key.publicKey().get())) {
                details.accept("SSH key " + key.file() + " needs a passphrase; ssh-agent holds it");
            } else {
                warnings.accept("SSH key " + key.file() + " needs its passphrase and " + missing + ": load it with"
                        + " 'ssh-add " + key.file() + "' (sperli never asks for a passphrase)");
            }
        }
    }

    /** The public keys the agent at {@code socket} holds (a certificate's key counts as held). */
    static List<PublicKey> held(Path socket, Clock clock) throws IOException {
        List<PublicKey> keys = new ArrayList<>();
        try (UnixSocketAgent agent = UnixSocketAgent.connect(socket, clock)) {
            for (Map.Entry<PublicKey, String> identity : agent.getIdentities()) {
                PublicKey key = identity.getKey();
                keys.add(key instanceof OpenSshCertificate c ? c.getCertPubKey() : key);
            }
        }
        return keys;
    }

    private static boolean holds(List<PublicKey> held, PublicKey key) {
        return held.stream().anyMatch(k -> KeyUtils.compareKeys(k, key));
    }
}
