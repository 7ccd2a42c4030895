package org.sperli.launcher.job;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.sperli.jobspec.HostSyntax;
import org.sperli.jobspec.JobDescription.HostEntry;
import org.sperli.jobspec.RefusedHostPolicy;
import org.sperli.launcher.exit.LauncherException;
import org.sperli.protocol.Limits;

/**
 * The host list of a job, index = rank: each operator entry normalized (ASCII lower case, trailing dot removed) and
 * checked against the v1 host syntax (IPv6 refused), with a port for every rank.
 *
 * <p>Ports: an entry with {@code host:port} keeps its port; every other rank on a host gets the lowest port from
 * {@code --port-base} up that no rank on that host uses yet, so ranks on one host get P, P+1, ... Two explicit
 * entries with the same host and port are refused. {@code localhost} and {@code 127.0.0.1} share one port space: they
 * are the same machine, and each rank listens on the wildcard address.
 *
 * <p>Refused hosts are judged here too ({@link #refusals}), before anything starts; a rank that moves away from an
 * unreachable host ({@link #relocate}) only ever moves to another host of this list that the policy allows. The list
 * includes the spare slots of {@code -n} ({@link SlotFill}): listed hosts that got no rank.
 */
public final class HostPlan {
    /**
     * The default of {@code --port-base}. Below Linux's default ephemeral range (32768-60999, {@link EphemeralPorts}),
     * where the 47000 of before lay: there any dial on the host could take a rank's port before the rank listened.
     * And in a gap of the ports that services on cluster nodes hold: above the worker ports of Ray (10002-19999),
     * Syncthing (21027, 22000); below GlusterFS (24007), the FlexLM license servers of commercial HPC software
     * (27000-27009), MongoDB (27017), PyTorch's rendezvous (29400, 29500) and Kubernetes' node ports (30000-32767). A
     * thousand ranks on one host stay in the gap.
     */
    public static final int DEFAULT_PORT_BASE = 23000;
    /** The names that run as local processes unless --ssh is given. */
    public static final Set<String> LOCAL_NAMES = Set.of("localhost", "127.0.0.1");

    private final List<HostEntry> entries;
    private final List<String> origins;
    private final Map<String, Set<String>> spareOrigins;
    private final int portBase;

    private HostPlan(List<HostEntry> entries, List<String> origins, Map<String, Set<String>> spareOrigins,
                     int portBase) {
        this.entries = List.copyOf(entries);
        this.origins = List.copyOf(origins);
        this.spareOrigins = Collections.unmodifiableMap(new LinkedHashMap<>(spareOrigins));
        this.portBase = portBase;
    }

    /** Normalizes and checks every spec and assigns ports; refuses bad input with exit status 2. */
    public static HostPlan build(List<HostSpec> specs, int portBase) {
        return build(SlotFill.all(specs), portBase);
    }

    /**
     * As {@link #build(List, int)} for the ranks of {@code fill}; its spare slots are checked the same way and are
     * hosts of this plan too: judged by {@link #refusals} and candidates of {@link #relocate}, but given no rank.
     */
    public static HostPlan build(SlotFill fill, int portBase) {
        List<HostSpec> specs = fill.ranks();
        if (specs.isEmpty()) {
            throw LauncherException.usage("no host listed");
        }
        if (specs.size() > Limits.MAX_SIZE) {
            throw LauncherException.usage(specs.size() + " ranks listed, at most " + Limits.MAX_SIZE);
        }
        if (portBase < 1 || portBase > 65535) {
            throw LauncherException.usage("--port-base " + portBase + " is not in 1..65535");
        }
        List<String> hosts = new ArrayList<>();
        List<String> origins = new ArrayList<>();
        Map<String, Set<Integer>> used = new HashMap<>();
        Map<String, String> explicitAt = new HashMap<>();
        for (HostSpec spec : specs) {
            String host = checkedHost(spec);
            hosts.add(host);
            origins.add(spec.origin());
            if (spec.hasPort()) {
                String key = portSpace(host) + ":" + spec.port();
                String earlier = explicitAt.putIfAbsent(key, spec.origin());
                if (earlier != null) {
                    throw LauncherException.usage(spec.origin() + ": " + host + ":" + spec.port()
                            + " is already the port of " + earlier);
                }
                used.computeIfAbsent(portSpace(host), k -> new HashSet<>()).add(spec.port());
            }
        }
        List<HostEntry> entries = new ArrayList<>();
        for (int rank = 0; rank < specs.size(); rank++) {
            HostSpec spec = specs.get(rank);
            String host = hosts.get(rank);
            int port = spec.port();
            if (!spec.hasPort()) {
                Set<Integer> taken = used.computeIfAbsent(portSpace(host), k -> new HashSet<>());
                port = lowestFree(taken, portBase);
                if (port > 65535) {
                    throw LauncherException.usage(spec.origin() + ": no port left on " + host + " from --port-base "
                            + portBase);
                }
                taken.add(port);
            } else if (port > 65535) {
                throw LauncherException.usage(spec.origin() + ": port " + port + " is past 65535");
            }
            entries.add(new HostEntry(host, port));
        }
        Map<String, Set<String>> spares = new LinkedHashMap<>();
        for (HostSpec spec : fill.spares()) {
            spares.computeIfAbsent(checkedHost(spec), h -> new LinkedHashSet<>()).add(spec.origin());
        }
        return new HostPlan(entries, origins, spares, portBase);
    }

    /** The spec's host normalized; one outside the v1 syntax is refused, naming where it came from. */
    private static String checkedHost(HostSpec spec) {
        String host = HostSyntax.normalize(spec.host().strip());
        String fault = HostSyntax.check(host);
        if (fault != null) {
            throw LauncherException.usage(spec.origin() + ": " + fault);
        }
        return host;
    }

    /** The host list, index = rank. */
    public List<HostEntry> entries() {
        return entries;
    }

    public int size() {
        return entries.size();
    }

    /** Where rank {@code rank}'s entry came from. */
    public String origin(int rank) {
        return origins.get(rank);
    }

    /**
     * One line per refused host of this plan, spare hosts included, naming the host, the rule and source that refuse
     * it ({@link RefusedHostPolicy#refusal}) and the entries that list it; empty when none is refused.
     */
    public List<String> refusals(RefusedHostPolicy policy) {
        Map<String, List<String>> byHost = new LinkedHashMap<>();
        for (int rank = 0; rank < entries.size(); rank++) {
            byHost.computeIfAbsent(entries.get(rank).host(), h -> new ArrayList<>())
                    .add("rank " + rank + " from " + origins.get(rank));
        }
        spareOrigins.forEach((host, from) -> from.forEach(origin ->
                byHost.computeIfAbsent(host, h -> new ArrayList<>()).add("unused slot from " + origin)));
        List<String> lines = new ArrayList<>();
        for (Map.Entry<String, List<String>> e : byHost.entrySet()) {
            Optional<String> reason = policy.refusal(e.getKey());
            if (reason.isPresent()) {
                lines.add("H1615 host refused: " + reason.get() + " (" + String.join(", ", e.getValue()) + ")");
            }
        }
        return lines;
    }

    /** How many ranks of this plan run as local processes ({@link #runsLocally}). */
    public int localRanks(boolean forceSsh) {
        return (int) entries().stream().filter(e -> runsLocally(e.host(), forceSsh)).count();
    }

    /** The ports of the ranks of this plan that run as local processes ({@link #runsLocally}), by rank. */
    public List<Integer> localPorts(boolean forceSsh) {
        return entries.stream().filter(e -> runsLocally(e.host(), forceSsh)).map(HostEntry::port).toList();
    }

    /** Whether a rank on {@code host} runs as a local process: localhost or 127.0.0.1, unless SSH is forced. */
    public static boolean runsLocally(String host, boolean forceSsh) {
        return !forceSsh && LOCAL_NAMES.contains(host);
    }

    /**
     * Another entry for {@code rank}, whose host in {@code current} cannot be reached: the host of this plan (spare
     * hosts included) with the fewest ranks in {@code current} (the earliest listed on a tie) that is neither
     * unreachable nor refused, on the lowest free port from --port-base there. Empty when no such host is left.
     */
    public Optional<HostEntry> relocate(int rank, List<HostEntry> current, Set<String> unreachable,
                                        RefusedHostPolicy policy) {
        String from = current.get(rank).host();
        Map<String, Integer> load = new LinkedHashMap<>();
        for (HostEntry e : entries) {
            load.putIfAbsent(e.host(), 0);
        }
        for (String spare : spareOrigins.keySet()) {
            load.putIfAbsent(spare, 0);
        }
        for (HostEntry e : current) {
            load.merge(e.host(), 1, Integer::sum);
        }
        String best = null;
        for (Map.Entry<String, Integer> candidate : load.entrySet()) {
            String host = candidate.getKey();
            if (host.equals(from) || unreachable.contains(host) || policy.refusal(host).isPresent()) {
                continue;
            }
            if (best == null || candidate.getValue() < load.get(best)) {
                best = host;
            }
        }
        if (best == null) {
            return Optional.empty();
        }
        Set<Integer> taken = new HashSet<>();
        for (HostEntry e : current) {
            if (portSpace(e.host()).equals(portSpace(best))) {
                taken.add(e.port());
            }
        }
        int port = lowestFree(taken, portBase);
        return port > 65535 ? Optional.empty() : Optional.of(new HostEntry(best, port));
    }

    private static int lowestFree(Set<Integer> taken, int from) {
        int port = from;
        while (taken.contains(port)) {
            port++;
        }
        return port;
    }

    /** Names of one machine share ports: the loopback names are one. */
    private static String portSpace(String host) {
        return LOCAL_NAMES.contains(host) ? "loopback" : host;
    }

    @Override
    public String toString() {
        return "HostPlan" + entries;
    }
}
