package org.sperli.launcher.command;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.sperli.launcher.job.HostSources;
import org.sperli.launcher.job.HostSpec;
import picocli.CommandLine.Option;

/** Where the hosts come from: exactly one of --hosts, --hostfile, --hosts-from. */
public final class HostOptions {
    /** Sources of --hosts-from. */
    public enum Source { SLURM }

    @Option(names = "--hosts", paramLabel = "H[:PORT],...", required = true,
            description = "Hosts, one entry per rank in rank order; host or host:port; a host may repeat.")
    String list;

    @Option(names = "--hostfile", paramLabel = "FILE", required = true,
            description = "Open MPI hostfile: 'host[:port] [slots=N]' a line, # comments.")
    Path hostfile;

    @Option(names = "--hosts-from", paramLabel = "SOURCE", required = true,
            description = "slurm: expand SLURM_JOB_NODELIST (node[01-04,07]), SLURM_TASKS_PER_NODE ranks per node.")
    Source source;

    /** The host specs, one per rank. */
    List<HostSpec> specs(Map<String, String> env) {
        if (list != null) {
            return HostSources.fromList(list);
        }
        if (hostfile != null) {
            return HostSources.fromHostfile(hostfile);
        }
        return HostSources.fromSlurm(env);
    }
}
