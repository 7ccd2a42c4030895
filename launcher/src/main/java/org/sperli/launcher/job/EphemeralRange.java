package org.sperli.launcher.job;

import java.util.List;

/**
 * A host's ephemeral port range ({@code ip_local_port_range}) with the ports reserved out of it
 * ({@code ip_local_reserved_ports}): the ports the kernel gives to outgoing connections that did not bind one. A
 * listening port among them can be taken by any dial on the host before its listener binds it, the job's own dials
 * included (64 ranks make 2016 connections), so a rank port must lie outside them.
 */
public record EphemeralRange(PortSpan ports, List<PortSpan> reserved) {
    public EphemeralRange {
        reserved = List.copyOf(reserved);
    }

    /** Whether the kernel may give {@code port} to an outgoing connection. */
    public boolean takes(int port) {
        return ports.contains(port) && reserved.stream().noneMatch(r -> r.contains(port));
    }

    /** Whether any of the ports {@code base..base+count-1} is one the kernel may give away. */
    public boolean overlaps(int base, int count) {
        for (int port = base; port < base + count; port++) {
            if (takes(port)) {
                return true;
            }
        }
        return false;
    }

    /** Those of {@code rankPorts} the kernel may give away, in their order. */
    public List<Integer> taken(List<Integer> rankPorts) {
        return rankPorts.stream().filter(this::takes).toList();
    }
}
