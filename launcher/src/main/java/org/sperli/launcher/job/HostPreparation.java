package org.sperli.launcher.job;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.sperli.launcher.exit.LauncherException;

/**
 * Makes the SSH hosts of a job ready at once, each on a thread of its own (at most {@link #AT_ONCE}): a host's login,
 * probe and staging take a second or two, mostly waiting for the network and the host, and one after another they
 * made a job on 16 hosts wait half a minute before its first rank started.
 */
final class HostPreparation {
    /**
     * Hosts prepared at the same time; more wait for a thread. A preparation mostly waits (round trips of the login,
     * the host's shell running the probe); the launcher's own work is a key exchange and a signature, a few
     * milliseconds of CPU. So 64 at once (ClusterShell's fan-out; pdsh takes 32, PRRTE up to 128) let 256 hosts be
     * ready in four rounds, while a launcher's machine never holds more than 64 logins in flight.
     */
    static final int AT_ONCE = 64;

    private HostPreparation() {
    }

    /**
     * Prepares every host of {@code portsByHost} (each with the ports of the ranks it is to run) with
     * {@code starter}; returns those that could not be reached, in the order given, with why. Any other failure (a
     * host that refuses the job, say) is thrown as soon as it is seen; the preparations still under way end with the
     * starter's close.
     */
    static Map<String, HostUnreachableException> prepare(RankStarter starter,
                                                         Map<String, List<Integer>> portsByHost) {
        List<String> hosts = List.copyOf(portsByHost.keySet());
        Map<String, HostUnreachableException> lost = new LinkedHashMap<>();
        if (hosts.size() == 1) {
            try {
                starter.prepare(hosts.get(0), portsByHost.get(hosts.get(0)));
            } catch (HostUnreachableException e) {
                lost.put(hosts.get(0), e);
            }
            return lost;
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(hosts.size(), AT_ONCE), r -> {
            Thread t = new Thread(r, "sperli-prepare-host");
            t.setDaemon(true);
            return t;
        });
        try {
            CompletionService<String> done = new ExecutorCompletionService<>(pool);
            Map<Future<String>, String> hostOf = new LinkedHashMap<>();
            for (String host : hosts) {
                hostOf.put(done.submit(() -> {
                    starter.prepare(host, portsByHost.get(host));
                    return host;
                }), host);
            }
            Map<String, HostUnreachableException> unordered = new LinkedHashMap<>();
            for (int i = 0; i < hosts.size(); i++) {
                Future<String> f = done.take();
                try {
                    f.get();
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof HostUnreachableException unreachable) {
                        unordered.put(hostOf.get(f), unreachable);
                    } else if (e.getCause() instanceof RuntimeException failure) {
                        throw failure;
                    } else {
                        throw LauncherException.startFailed("preparing host " + hostOf.get(f) + " failed: "
                                + e.getCause(), e.getCause());
                    }
                }
            }
            for (String host : hosts) {
                if (unordered.containsKey(host)) {
                    lost.put(host, unordered.get(host));
                }
            }
            return lost;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw LauncherException.startFailed("interrupted while preparing the SSH hosts", e);
        } finally {
            pool.shutdownNow();
        }
    }
}
