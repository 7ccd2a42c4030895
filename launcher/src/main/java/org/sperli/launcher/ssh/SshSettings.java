package org.sperli.launcher.ssh;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * The operator's SSH set-up: the directory with {@code config}, {@code known_hosts} and the user keys
 * {@code id_*} (normally {@code ~/.ssh}), whether unknown host keys are accepted and recorded
 * ({@code --accept-new-host-keys}), the login name used when {@code config} names none, and the socket of the
 * operator's {@code ssh-agent} ({@code SSH_AUTH_SOCK}), asked for keys before the key files, as {@code ssh} does.
 */
public record SshSettings(Path sshDir, boolean acceptNewHostKeys, String defaultUser, Path agentSocketOrNull) {
    /** The variable that names the socket of the operator's {@code ssh-agent}, as for {@code ssh}. */
    public static final String AGENT_SOCKET_VARIABLE = "SSH_AUTH_SOCK";

    public SshSettings {
        Objects.requireNonNull(sshDir, "sshDir");
        Objects.requireNonNull(defaultUser, "defaultUser");
    }

    /** Without an agent. */
    public SshSettings(Path sshDir, boolean acceptNewHostKeys, String defaultUser) {
        this(sshDir, acceptNewHostKeys, defaultUser, null);
    }

    /** {@code ~/.ssh} (or {@code sshDirOrNull}) and this process's user, without an agent. */
    public static SshSettings of(Path sshDirOrNull, boolean acceptNewHostKeys) {
        return of(sshDirOrNull, acceptNewHostKeys, Map.of());
    }

    /** As {@link #of(Path, boolean)}, with the agent {@code env}'s {@value #AGENT_SOCKET_VARIABLE} names. */
    public static SshSettings of(Path sshDirOrNull, boolean acceptNewHostKeys, Map<String, String> env) {
        Path dir = sshDirOrNull != null ? sshDirOrNull : Path.of(System.getProperty("user.home"), ".ssh");
        String socket = env.getOrDefault(AGENT_SOCKET_VARIABLE, "").strip();
        return new SshSettings(dir.toAbsolutePath(), acceptNewHostKeys, System.getProperty("user.name"),
                socket.isEmpty() ? null : Path.of(socket));
    }

    public Path knownHosts() {
        return sshDir.resolve("known_hosts");
    }

    public Path config() {
        return sshDir.resolve("config");
    }
}
