package org.sperli.launcher.slurm;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sperli.launcher.exit.LauncherException;
import org.sperli.launcher.job.HostSources;
import org.sperli.launcher.job.HostSpec;
import org.sperli.launcher.job.SlurmHostlist;
import org.sperli.protocol.Limits;

/**
 * The Slurm allocation the launcher runs in: its job id, its nodes in order with the address each is reached at
 * (Slurm's NodeAddr, which is the node's name unless the administrator set another) and its task slots.
 */
public record SlurmAllocation(String jobId, List<Node> nodes) {
    /** The variable that is set inside an allocation (salloc, sbatch, srun). */
    public static final String JOB_ID = "SLURM_JOB_ID";

    /** One node: Slurm's name, where its ranks are reached, and its slots ({@code SLURM_TASKS_PER_NODE}). */
    public record Node(String name, String address, int slots) {
    }

    public SlurmAllocation {
        nodes = List.copyOf(nodes);
    }

    /** Whether {@code env} is inside an allocation. */
    public static boolean inside(Map<String, String> env) {
        String id = env.get(JOB_ID);
        return id != null && !id.isBlank();
    }

    /**
     * The allocation of {@code env}; {@code addresses} gives each node's NodeAddr where Slurm knows one. Two nodes of
     * one address are refused: their ranks could not be told apart.
     */
    public static SlurmAllocation of(Map<String, String> env, Map<String, String> addresses) {
        String id = env.get(JOB_ID);
        if (id == null || id.isBlank() || !id.strip().chars().allMatch(c -> c >= '0' && c <= '9')
                || id.strip().length() > 18) {
            throw LauncherException.usage("--launcher slurm: " + JOB_ID + (id == null ? " is not set" : "='"
                    + id.strip() + "' is not a job number") + " (run inside salloc or sbatch, or use --launcher ssh)");
        }
        String list = env.get(HostSources.SLURM_NODELIST);
        if (list == null || list.isBlank()) {
            throw LauncherException.usage("--launcher slurm: " + HostSources.SLURM_NODELIST + " is not set");
        }
        List<String> names = SlurmHostlist.expand(list.strip());
        String tasks = env.get(HostSources.SLURM_TASKS_PER_NODE);
        List<Integer> counts = tasks == null || tasks.isBlank() ? null : SlurmHostlist.tasksPerNode(tasks.strip());
        if (counts != null && counts.size() != names.size()) {
            throw LauncherException.usage("--launcher slurm: " + HostSources.SLURM_TASKS_PER_NODE + "='"
                    + tasks.strip() + "' gives " + counts.size() + " nodes, " + HostSources.SLURM_NODELIST + " has "
                    + names.size());
        }
        List<Node> nodes = new ArrayList<>();
        Map<String, String> byAddress = new HashMap<>();
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            String address = addresses.getOrDefault(name, name);
            String other = byAddress.putIfAbsent(address, name);
            if (other != null) {
                throw LauncherException.usage("--launcher slurm: nodes " + other + " and " + name
                        + " have one address " + address + "; their ranks cannot be told apart");
            }
            nodes.add(new Node(name, address, counts == null ? 1 : counts.get(i)));
        }
        return new SlurmAllocation(id.strip(), nodes);
    }

    /** The allocation of {@code env}, each node's address asked of {@code scontrol}. */
    public static SlurmAllocation fromEnvironment(Map<String, String> env) {
        String list = env.get(HostSources.SLURM_NODELIST);
        List<String> names = list == null || list.isBlank() ? List.of() : SlurmHostlist.expand(list.strip());
        return of(env, names.isEmpty() ? Map.of() : SlurmTools.nodeAddresses(names, env));
    }

    /** The node names of {@code env}'s allocation; empty when it lists none. */
    public static List<String> nodeNames(Map<String, String> env) {
        String list = env.get(HostSources.SLURM_NODELIST);
        return list == null || list.isBlank() ? List.of() : SlurmHostlist.expand(list.strip());
    }

    /**
     * {@code listed} ({@code --hosts} or a hostfile within the allocation), each entry's node by its name: its host
     * becomes the node's address, and a rank without its own port gets one of its own across the allocation, from
     * {@code portBase}. A host that is no node of the allocation is refused in one line.
     */
    public List<HostSpec> within(List<HostSpec> listed, int portBase) {
        List<HostSpec> specs = new ArrayList<>();
        for (HostSpec spec : listed) {
            Node node = nodes.stream().filter(n -> n.name().equals(spec.host())).findFirst().orElseThrow(() ->
                    LauncherException.usage(spec.origin() + ": '" + spec.host() + "' is no node of Slurm job "
                            + jobId + " (" + nodes.stream().map(Node::name).toList() + "), or use --launcher ssh"));
            int port = spec.hasPort() ? spec.port() : portBase + specs.size();
            specs.add(new HostSpec(node.address(), port, spec.origin()));
        }
        return specs;
    }

    /** The node whose ranks are reached at {@code address}, or null. */
    public Node nodeAt(String address) {
        return nodes.stream().filter(n -> n.address().equals(address)).findFirst().orElse(null);
    }

    /**
     * One host spec per rank: with {@code ranksOrNull} absent every slot; with N at most the slots, the first N (as
     * mpirun fills them); with more than the slots, N spread evenly over the nodes (the ranks are the agents'
     * children, not Slurm tasks). Each rank gets a port of its own across the allocation, from {@code portBase}, so
     * that nodes that share a machine (a test cluster) do not collide.
     */
    public List<HostSpec> specs(Integer ranksOrNull, int portBase) {
        int slots = nodes.stream().mapToInt(Node::slots).sum();
        int wanted = ranksOrNull == null ? slots : ranksOrNull;
        if (wanted < 1 || wanted > Limits.MAX_SIZE) {
            throw LauncherException.usage("-n " + wanted + " is not in 1.." + Limits.MAX_SIZE);
        }
        Map<Node, Integer> perNode = new LinkedHashMap<>();
        if (wanted <= slots) {
            int left = wanted;
            for (Node n : nodes) {
                int take = Math.min(left, n.slots());
                perNode.put(n, take);
                left -= take;
            }
        } else {
            for (int i = 0; i < nodes.size(); i++) {
                perNode.put(nodes.get(i), wanted / nodes.size() + (i < wanted % nodes.size() ? 1 : 0));
            }
        }
        List<HostSpec> specs = new ArrayList<>();
        for (Map.Entry<Node, Integer> e : perNode.entrySet()) {
            for (int s = 0; s < e.getValue(); s++) {
                int port = portBase + specs.size();
                if (port > 65535) {
                    throw LauncherException.usage("--port-base " + portBase + ": no port left for rank "
                            + specs.size());
                }
                specs.add(new HostSpec(e.getKey().address(), port, "Slurm node " + e.getKey().name()));
            }
        }
        return specs;
    }

    /** The nodes that have ranks in {@code specs}, in allocation order. */
    public List<Node> nodesOf(List<HostSpec> specs) {
        return nodes.stream().filter(n -> specs.stream().anyMatch(s -> s.host().equals(n.address()))).toList();
    }
}
