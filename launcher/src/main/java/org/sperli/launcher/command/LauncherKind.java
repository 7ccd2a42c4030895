package org.sperli.launcher.command;

import java.util.Locale;
import java.util.Map;
import org.sperli.launcher.exit.LauncherException;
import org.sperli.launcher.slurm.SlurmAllocation;

/**
 * What starts the host agents: {@code local} (this host only), {@code ssh} (a login to each host) or {@code slurm}
 * (one srun step inside the allocation). Without {@code --launcher}, slurm inside an allocation unless hosts are
 * listed (--hosts, --hostfile), else ssh for listed hosts and local for {@code -n N} alone.
 */
enum LauncherKind {
    LOCAL, SSH, SLURM;

    /** The kind to run, and the one-line refusal of a combination that cannot work. */
    static LauncherKind choose(LauncherKind askedOrNull, HostOptions hosts, Map<String, String> env) {
        boolean listed = hosts != null && hosts.source == null;
        boolean inside = SlurmAllocation.inside(env);
        if (askedOrNull == null) {
            if (inside && !listed) {
                return SLURM;
            }
            return hosts == null ? LOCAL : SSH;
        }
        if (askedOrNull == SLURM && listed) {
            throw LauncherException.usage("--launcher slurm takes its nodes from the allocation: drop --hosts or"
                    + " --hostfile, or use --launcher ssh");
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
