package org.sperli.launcher.ssh;

import java.time.Duration;
import java.util.Optional;
import org.sperli.launcher.job.HostUnreachableException;

/**
 * How the launcher logs in to SSH hosts: with the built-in client ({@link MinaLogins}), or through the operator's
 * own ssh program ({@link CommandLogins}, {@code --ssh-command}).
 */
interface HostLogins extends AutoCloseable {
    /**
     * A login to {@code host}.
     *
     * @throws HostUnreachableException when the host cannot be reached: its ranks move
     * @throws org.sperli.launcher.exit.LauncherException when the login was refused (a host key, the keys), which is
     *         the operator's to fix
     */
    HostLogin connect(String host) throws HostUnreachableException;

    /**
     * As {@link #connect}, bounded by {@code bound}: for a host whose login stopped answering in the middle of a job,
     * where a short probe decides whether its ranks must move.
     */
    HostLogin reconnect(String host, Duration bound) throws HostUnreachableException;

    /**
     * The HostName that the operator's SSH configuration gives {@code name} when it is an alias of another name or
     * address (an ssh_config {@code Host name} block with {@code HostName}); empty when it is none, or when that
     * cannot be found out.
     */
    Optional<String> aliasHostName(String name);

    /** Ends every login still open. */
    @Override
    void close();
}
