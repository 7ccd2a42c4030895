package org.sperli.launcher.command;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import org.sperli.launcher.exit.LauncherException;
import org.sperli.launcher.job.HostSpec;

/**
 * Host lists of local ranks only, for {@code sperli demo} and {@code sperli run -n N} without a host option: N times
 * {@code localhost}, on ports the OS reports free right now, so that two such jobs on one machine do not meet at
 * --port-base; with {@code --port-base} given, on its ports P, P+1, ... as for any host list.
 */
public final class LocalHosts {
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

    /** Ports the OS hands out as free right now (a later bind can still lose a race; the job then fails clearly). */
    public static List<Integer> freePorts(int n) throws IOException {
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            List<Integer> ports = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                sockets.add(s);
                ports.add(s.getLocalPort());
            }
            return ports;
        } finally {
            for (ServerSocket s : sockets) {
                s.close();
            }
        }
    }

    private static List<Integer> freePortsOrSay(int n) {
        try {
            return freePorts(n);
        } catch (IOException e) {
            throw LauncherException.startFailed("cannot find " + n + " free loopback ports: " + e.getMessage(), e);
        }
    }
}
