package org.sperli.launcher.job;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.sperli.identity.JobKit;
import org.sperli.jobspec.JobDescription.HostEntry;
import org.sperli.jobspec.RefusedHostPolicy;
import org.sperli.launcher.exit.LauncherException;
import org.sperli.launcher.report.Console;

/**
 * Makes every host of the job's current host list ready before an incarnation, and holds that list (the kit): a rank
 * whose host cannot be reached moves to another listed host that the policy allows ({@link HostPlan#relocate}), for
 * this incarnation and every later one, and the hosts that received ranks are judged again for their new number.
 * The next incarnation asks every SSH session whether it still answers first, and moves the ranks of a host that
 * does not (see {@code SshRanks.prepare}).
 */
final class HostReadiness {
    /** The name under which the local ranks are judged, whichever local name the host list gives them. */
    private static final String LOCAL_HOST = "localhost";

    private final HostPlan plan;
    private final RefusedHostPolicy policy;
    private final boolean forceSsh;
    private final RankStarter local;
    private final RankStarter remote;
    private final Console console;
    private final Set<String> unreachable = new HashSet<>();
    /** How many local ranks this host was judged for: the plan's, judged before the start, until ranks move here. */
    private int localReadyFor;
    private JobKit kit;

    /** @param remote starter for hosts that are not local; may be null when every host of the plan runs locally */
    HostReadiness(HostPlan plan, JobKit kit, RefusedHostPolicy policy, boolean forceSsh, RankStarter local,
                  RankStarter remote, Console console) {
        this.plan = plan;
        this.kit = kit;
        this.localReadyFor = plan.localRanks(forceSsh);
        this.policy = policy;
        this.forceSsh = forceSsh;
        this.local = local;
        this.remote = remote;
        this.console = console;
    }

    /** The kit as it is now (ranks may have moved). */
    synchronized JobKit kit() {
        return kit;
    }

    /**
     * Makes every host of the current host list ready for its ranks: the SSH hosts all at once, moving the ranks of
     * hosts that cannot be reached to others, and then each host whose ranks grew by such moves once more, judged for
     * its new number (a host that was ready included), until none has more ranks than it was made ready for. The
     * local ranks are judged last, when moves made them more than the launcher judged before the start.
     *
     * @throws LauncherException when a host refuses the job or a rank has no host left to move to
     */
    void prepare() {
        Map<String, Integer> readyFor = new HashMap<>();
        while (true) {
            Map<String, List<Integer>> pending = remoteHosts();
            pending.entrySet().removeIf(e -> e.getValue().size() <= readyFor.getOrDefault(e.getKey(), 0));
            if (pending.isEmpty()) {
                break;
            }
            pending.forEach((host, ports) -> readyFor.put(host, ports.size()));
            for (Map.Entry<String, HostUnreachableException> lost
                    : HostPreparation.prepare(remote, pending).entrySet()) {
                console.note(lost.getValue().getMessage());
                unreachable.add(lost.getKey());
                moveRanksOff(lost.getKey(), lost.getValue());
            }
        }
        List<Integer> localPorts = localPorts();
        if (localPorts.size() > localReadyFor) {
            try {
                local.prepare(LOCAL_HOST, localPorts);
            } catch (HostUnreachableException e) {
                throw LauncherException.startFailed(e.getMessage(), e);
            }
            localReadyFor = localPorts.size();
        }
    }

    /** The ports of the ranks of the current host list that run as local processes. */
    private List<Integer> localPorts() {
        return kit().hosts().stream().filter(e -> HostPlan.runsLocally(e.host(), forceSsh)).map(HostEntry::port)
                .toList();
    }

    /** The SSH hosts of the current host list, in its order, each with the ports of the ranks it runs. */
    private Map<String, List<Integer>> remoteHosts() {
        Map<String, List<Integer>> hosts = new LinkedHashMap<>();
        for (HostEntry e : kit().hosts()) {
            if (!HostPlan.runsLocally(e.host(), forceSsh)) {
                hosts.computeIfAbsent(e.host(), h -> new ArrayList<>()).add(e.port());
            }
        }
        if (!hosts.isEmpty() && remote == null) {
            throw new IllegalStateException("remote hosts " + hosts.keySet() + " but no SSH starter");
        }
        return hosts;
    }

    /** Moves every rank of {@code host} to another listed host; none left to move one to ends the job. */
    private synchronized void moveRanksOff(String host, HostUnreachableException cause) {
        for (int rank = 0; rank < kit.size(); rank++) {
            List<HostEntry> current = kit.hosts();
            if (!current.get(rank).host().equals(host)) {
                continue;
            }
            Optional<HostEntry> to = plan.relocate(rank, current, unreachable, policy);
            if (to.isEmpty()) {
                throw LauncherException.startFailed("rank " + rank + ": " + cause.getMessage()
                        + ", and no other listed host is left to move it to", cause);
            }
            console.note("rank " + rank + " moves from " + host + " to " + to.get().host() + ":" + to.get().port());
            kit = kit.withHost(rank, to.get());
        }
    }
}
