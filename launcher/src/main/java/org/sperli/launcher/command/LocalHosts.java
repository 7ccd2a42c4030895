package org.sperli.launcher.command;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.sperli.launcher.exit.LauncherException;
import org.sperli.launcher.job.EphemeralPorts;
import org.sperli.launcher.job.EphemeralRange;
import org.sperli.launcher.job.HostPlan;
import org.sperli.launcher.job.HostSpec;
import org.sperli.launcher.job.PortSpan;

/**
 * Host lists of local ranks only, for {@code sperli demo} and {@code sperli run -n N} without a host option: N times
 * {@code localhost}, on ports free right now between the default --port-base and this host's ephemeral range
 * ({@link #freePorts}), so that two such jobs on one machine do not meet at --port-base; with {@code --port-base}
 * given, on its ports P, P+1, ... as for any host list.
 */
public final class LocalHosts {
    /** Where the free ports end where this host has no ephemeral range to read: Linux's default begins there. */
    static final int END_WITHOUT_RANGE = 32768;

    private LocalHosts() {
    }

    /** {@code n} local ranks; {@code origin} names them in messages ({@code -n}, {@code demo}). */
    static List<HostSpec> specs(int n, boolean portBaseGiven, String origin) {
        List<Integer> ports = portBaseGiven ? List.of() : freePortsOrSay(n);
        List<HostSpec> hosts = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            hosts.add(new HostSpec("localhost", portBaseGiven ? HostSpec.NO_PORT : ports.get(i),
                    origin + " rank " + i));
        }
        return hosts;
    }

    /**
     * {@code n} ports that a rank could listen at right now, from {@link HostPlan#DEFAULT_PORT_BASE} up to below
     * this host's ephemeral range: the ports the OS hands out for port 0 lie in that range, where any dial on the
     * host can take them before the rank binds (a later bind can still lose a race; the job then fails clearly). The
     * search starts at a random port of that band, so that jobs started at once seldom pick the same.
     */
    public static List<Integer> freePorts(int n) throws IOException {
        int first = HostPlan.DEFAULT_PORT_BASE;
        int end = EphemeralPorts.ofThisHost().map(EphemeralRange::ports).map(PortSpan::first)
                .orElse(END_WITHOUT_RANGE);
        int band = end - first;
        if (band < n) {
            throw new IOException("only " + Math.max(0, band) + " ports lie between " + first
                    + " and this host's ephemeral range, which starts at " + end);
        }
        List<Integer> ports = new ArrayList<>();
        int start = ThreadLocalRandom.current().nextInt(band);
        for (int i = 0; i < band && ports.size() < n; i++) {
            int port = first + (start + i) % band;
            if (free(port)) {
                ports.add(port);
            }
        }
        if (ports.size() < n) {
            throw new IOException("only " + ports.size() + " of the ports " + first + "-" + (end - 1) + " are free");
        }
        return ports;
    }

    /** Whether a rank could listen at {@code port} now: bound as a rank binds it, on the wildcard IPv4 address. */
    private static boolean free(int port) {
        try (ServerSocket probe = new ServerSocket()) {
            probe.setReuseAddress(true);
            probe.bind(new InetSocketAddress("0.0.0.0", port), 1);
            return true;
        } catch (IOException taken) {
            return false;
        }
    }

    private static List<Integer> freePortsOrSay(int n) {
        try {
            return freePorts(n);
        } catch (IOException e) {
            throw LauncherException.startFailed("cannot find " + n + " free ports for the local ranks: "
                    + e.getMessage() + "; give --port-base P, or ports with --hosts localhost:PORT,...", e);
        }
    }
}
