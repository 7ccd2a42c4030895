package org.sperli.testkit;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports for the ranks of a kit run, chosen as {@code sperli run -n N} chooses them (the launcher's
 * {@code LocalHosts.freePorts}): free right now, from 23000 up to below this host's ephemeral range, starting at a
 * random port of that band. A port of the ephemeral range could be taken by any outgoing connection before its rank
 * binds it, the ranks' own dials among them. Ports held by runs under way in this JVM are skipped, so that tests
 * running at once never pick the same.
 */
final class KitPorts {
    private static final int FIRST = 23000;
    /** Where the band ends on a host whose ephemeral range cannot be read: Linux's default start. */
    private static final int END_WITHOUT_RANGE = 32768;
    private static final Path RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    private static final Set<Integer> HELD = new HashSet<>();

    private KitPorts() {
    }

    /** {@code n} free ports, held for this JVM's runs until {@link #release}. */
    static List<Integer> take(int n) {
        int end = ephemeralStart();
        int band = end - FIRST;
        List<Integer> ports = new ArrayList<>();
        synchronized (HELD) {
            int start = ThreadLocalRandom.current().nextInt(Math.max(1, band));
            for (int i = 0; i < band && ports.size() < n; i++) {
                int port = FIRST + (start + i) % band;
                if (!HELD.contains(port) && free(port)) {
                    ports.add(port);
                }
            }
            if (ports.size() < n) {
                throw new IllegalStateException("only " + ports.size() + " of the ports " + FIRST + "-" + (end - 1)
                        + " are free, " + n + " needed");
            }
            HELD.addAll(ports);
        }
        return ports;
    }

    /** The ports are no longer the run's. */
    static void release(List<Integer> ports) {
        synchronized (HELD) {
            HELD.removeAll(ports);
        }
    }

    /** Whether a rank could listen at {@code port} now: bound as a rank binds it, on the wildcard IPv4 address. */
    static boolean free(int port) {
        try (ServerSocket probe = new ServerSocket()) {
            probe.setReuseAddress(true);
            probe.bind(new InetSocketAddress("0.0.0.0", port), 1);
            return true;
        } catch (IOException taken) {
            return false;
        }
    }

    private static int ephemeralStart() {
        try {
            String[] range = Files.readString(RANGE, StandardCharsets.US_ASCII).trim().split("\\s+");
            int start = Integer.parseInt(range[0]);
            return start > FIRST ? start : END_WITHOUT_RANGE;
        } catch (IOException | RuntimeException e) {
            return END_WITHOUT_RANGE;
        }
    }
}
