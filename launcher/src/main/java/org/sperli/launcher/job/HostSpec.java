package org.sperli.launcher.job;

import java.util.Objects;

/**
 * One rank's host as the operator wrote it, before normalization: the host, the port when one was given (else 0),
 * and where it came from ({@code --hosts entry 2}, {@code hostfile hosts.txt line 4}), for messages.
 */
public record HostSpec(String host, int port, String origin) {
    /** No port given: the plan assigns one from --port-base. */
    public static final int NO_PORT = 0;

    public HostSpec {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(origin, "origin");
    }

    public boolean hasPort() {
        return port != NO_PORT;
    }
}
