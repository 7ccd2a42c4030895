package org.sperli.launcher.command;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.sperli.launcher.job.HostSources;
import org.sperli.launcher.job.HostSpec;
import picocli.CommandLine.Option;

/**
 * Where the hosts come from: at most one of --hosts, --hostfile, --hosts-from (none with {@code -n N}: N local
 * ranks). Each gives slots in order, one per rank unless {@code -n} takes fewer ({@link SlotFill}).
 */
public final class HostOptions {
    /** Sources of --hosts-from. */
    public enum Source { SLURM }

    @Option(names = "--hosts", paramLabel = "H[:PORT][/N],...", required = true,
            description = "Hosts, one entry per rank in rank order; host or host:port; a host may repeat;"
                    + " host/N or host:port/N is N slots (ports port, port+1, ...).")
    String list;

    @Option(names = "--hostfile", paramLabel = "FILE", required = true,
            description = "Open MPI hostfile: 'host[:port] [slots=N]' a line, # comments.")
    Path hostfile;

    @Option(names = "--hosts-from", paramLabel = "SOURCE", required = true,
            description = "slurm: expand SLURM_JOB_NODELIST (node[01-04,07]), SLURM_TASKS_PER_NODE ranks per node.")
    Source source;

    /** The host specs, one per slot. */
    List<HostSpec> specs(Map<String, String> env) {
        if (list != null) {
            return HostSources.fromList(list);
        }
        if (hostfile != null) {
            return HostSources.fromHostfile(hostfile);
        }
        return HostSources.fromSlurm(env);
    }

    /** The option that listed the hosts, for messages. */
    String source() {
        if (list != null) {
            return "--hosts";
        }
        return hostfile != null ? "hostfile " + hostfile : "--hosts-from slurm";
    }
}
