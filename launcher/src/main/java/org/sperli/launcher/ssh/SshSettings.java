package org.sperli.launcher.ssh;

import java.nio.file.Path;
import java.util.Objects;

/**
 * The operator's SSH set-up: the directory with {@code config}, {@code known_hosts} and the user keys
 * {@code id_*} (normally {@code ~/.ssh}), whether unknown host keys are accepted and recorded
 * ({@code --accept-new-host-keys}), and the login name used when {@code config} names none.
 */
public record SshSettings(Path sshDir, boolean acceptNewHostKeys, String defaultUser) {
    public SshSettings {
        Objects.requireNonNull(sshDir, "sshDir");
        Objects.requireNonNull(defaultUser, "defaultUser");
    }

    /** {@code ~/.ssh} (or {@code sshDirOrNull}) and this process's user. */
    public static SshSettings of(Path sshDirOrNull, boolean acceptNewHostKeys) {
        Path dir = sshDirOrNull != null ? sshDirOrNull : Path.of(System.getProperty("user.home"), ".ssh");
        return new SshSettings(dir.toAbsolutePath(), acceptNewHostKeys, System.getProperty("user.name"));
    }

    public Path knownHosts() {
        return sshDir.resolve("known_hosts");
    }

    public Path config() {
        return sshDir.resolve("config");
    }
}
