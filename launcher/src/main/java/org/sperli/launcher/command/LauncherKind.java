package org.sperli.launcher.command;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import org.sperli.launcher.exit.LauncherException;
import org.sperli.launcher.slurm.SlurmAllocation;

/**
 * What starts the host agents: {@code local} (this host only), {@code ssh} (a login to each host) or {@code slurm}
 * (one srun step inside the allocation). Without {@code --launcher}, slurm inside an allocation unless hosts are
 * listed (--hosts, --hostfile) that are not all its nodes, else ssh for listed hosts and local for {@code -n N} alone.
 */
enum LauncherKind {
    LOCAL, SSH, SLURM;

    /**
     * The kind to run, and the one-line refusal of a combination that cannot work. Listed hosts inside an allocation
     * go through Slurm when every one is a node of it ({@code nodeNames}), else over SSH.
     */
    static LauncherKind choose(LauncherKind askedOrNull, HostOptions hosts, Map<String, String> env,
                               Supplier<List<String>> listedHosts) {
        boolean listed = hosts != null && hosts.source == null;
        boolean inside = SlurmAllocation.inside(env);
        if (askedOrNull == null) {
            if (inside && (!listed || SlurmAllocation.nodeNames(env).containsAll(listedHosts.get()))) {
                return SLURM;
            }
            return hosts == null ? LOCAL : SSH;
        }
        if (askedOrNull == LOCAL && hosts != null) {
            throw LauncherException.usage("--launcher local runs every rank on this host: give -n N without a host"
                    + " option");
        }
        return askedOrNull;
    }

    /** For -v and messages. */
    String word() {
        return name().toLowerCase(Locale.ROOT);
    }
}
