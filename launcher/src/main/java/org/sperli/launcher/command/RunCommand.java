package org.sperli.launcher.command;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.sperli.launcher.exit.LauncherException;
import org.sperli.launcher.job.HostSources;
import org.sperli.launcher.job.HostSpec;
import org.sperli.launcher.job.RankExports;
import org.sperli.launcher.job.SlotFill;
import org.sperli.launcher.report.Console;
import org.sperli.launcher.report.LineTimestamps;
import org.sperli.launcher.slurm.SlurmAllocation;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code sperli run}: one rank per host entry. Checks everything first (hosts, refused hosts, jar), then starts the
 * ranks, restarts the job when a rank fails (up to --restart-max times), and ends with a summary on stderr.
 */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = {
            "Runs job.jar on one rank per host entry, or with -n N on the first N slots of the hosts, or on N local"
                    + " ranks when no host option is given. Hosts named localhost or 127.0.0.1 run as local processes"
                    + " unless --ssh is given; other hosts are reached over SSH (~/.ssh/config, id_* keys, strict"
                    + " known_hosts). Refused hosts (SPERLI_REFUSED_HOSTS, host-a.invalid, host-b.invalid,"
                    + " --deny-hosts) stop the launch before anything starts (H1615).",
            "Rank output reaches this terminal as [rank N] lines. Ctrl-C or SIGTERM stops every rank."},
        footerHeading = "%nEnvironment:%n",
        footer = {
            "  SPERLI_REFUSED_HOSTS    names that never run a rank; passed to local ranks",
            "  SPERLI_RANKD_JAVA_OPTS  JVM options of local ranks (default rank command)",
            "  SLURM_JOB_ID            set inside a Slurm allocation: --launcher slurm by default",
            "  SLURM_JOB_NODELIST      read by --hosts-from slurm, with SLURM_TASKS_PER_NODE",
            "  SPERLI_DEBUG            like -v: stack traces on errors"},
        sortOptions = false)
public final class RunCommand implements Callable<Integer> {
    @ParentCommand
    private SperliCommand parent;

    @Spec
    private CommandSpec spec;

    @Option(names = {"-n", "-np"}, paramLabel = "N",
            description = "Run N ranks: with no host option N local ranks (on free ports, or from --port-base);"
                    + " with hosts, ranks 0..N-1 fill their slots in order as mpirun does (the first host up to its"
                    + " slots, then the next). More ranks than slots is refused.")
    private Integer ranks;

    @ArgGroup(exclusive = true, multiplicity = "0..1",
            heading = "%nHosts (at most one; none with -n N: local ranks):%n")
    private HostOptions hosts;

    @Option(names = "--launcher", paramLabel = "KIND",
            description = "What starts the ranks' host agents: local (this host), ssh (a login to each host) or slurm"
                    + " (one srun step, one agent per node, each calling home over TLS 1.3 with a MUNGE credential)."
                    + " Default: slurm inside a Slurm allocation (SLURM_JOB_ID) unless --hosts or --hostfile lists a"
                    + " host that is no node of it, else ssh for listed hosts, local for -n N alone. -v says which.")
    private LauncherKind launcher;

    @Option(names = "--restart-max", paramLabel = "N", defaultValue = "0",
            description = "Restart the whole job at most N times after a rank fails (default: ${DEFAULT-VALUE}).")
    private int restartMax;

    @Option(names = "--deny-hosts", paramLabel = "FILE",
            description = "More refused host names, one a line, # comments (adds to SPERLI_REFUSED_HOSTS).")
    private Path denyHosts;

    @Mixin
    private CheckpointOptions checkpoint;

    @Option(names = "-x", paramLabel = "VAR[=VALUE]",
            description = "Set VAR in every rank's environment, to VALUE or to the launcher's own value (repeatable)."
                    + " SSH ranks get these variables and nothing else of the launcher's environment (the values are"
                    + " on the remote command line: no secrets).")
    private List<String> exports = new ArrayList<>();

    @Mixin
    private SshOptions ssh;

    @Mixin
    private OutputOptions output;

    @Mixin
    private LaunchOptions launch;

    @Parameters(index = "0", paramLabel = "job.jar", description = "The job jar (manifest attribute Sperli-Job).")
    private Path jar;

    @Parameters(index = "1..*", paramLabel = "ARG", description = "Arguments of the job.")
    private List<String> jobArgs = new ArrayList<>();

    @Override
    public Integer call() {
        var environment = parent.environment();
        Console console = new Console(spec.commandLine().getOut(), spec.commandLine().getErr(), !launch.noPrefix,
                environment.terminal(), launch.verbose || environment.debug(),
                output.timestamps ? new LineTimestamps(environment.clock()) : null);
        Map<String, String> env = environment.variables();
        LauncherKind kind = LauncherKind.choose(launcher, hosts, env,
                () -> hosts.specs(env).stream().map(HostSpec::host).toList());
        SlurmAllocation slurm = kind == LauncherKind.SLURM ? SlurmAllocation.fromEnvironment(env) : null;
        SlotFill fill = slurm != null ? slurmSlots(slurm, env)
                : kind == LauncherKind.SSH && hosts == null ? sshInAllocation(env) : slots(env);
        console.detail("launcher: " + kind.word() + (slurm == null ? ""
                : " (Slurm job " + slurm.jobId() + ", " + slurm.nodes().size() + " nodes; one srun step starts a host"
                        + " agent on each node of the job, which calls home)"));
        JobRunner.Request request = new JobRunner.Request(fill, launch, restartMax, denyHosts, ssh, checkpoint,
                output, RankExports.of(exports, env), jar, jobArgs, slurm);
        return JobRunner.run(request, environment, parent.jobControl(), console);
    }

    /** The slots under Slurm: the allocation's, or the listed hosts' (--hosts, --hostfile) on its nodes. */
    private SlotFill slurmSlots(SlurmAllocation slurm, Map<String, String> env) {
        if (hosts == null || hosts.source != null) {
            return SlotFill.all(slurm.specs(ranks, launch.portBase));
        }
        List<HostSpec> slots = slurm.within(hosts.specs(env), launch.portBase);
        return ranks == null ? SlotFill.all(slots) : SlotFill.first(ranks, slots, hosts.source());
    }

    /** --launcher ssh inside an allocation without a host option: the allocation's nodes, as --hosts-from slurm. */
    private SlotFill sshInAllocation(Map<String, String> env) {
        if (!SlurmAllocation.inside(env)) {
            throw LauncherException.usage("--launcher ssh needs hosts: one of --hosts, --hostfile, --hosts-from");
        }
        List<HostSpec> slots = HostSources.fromSlurm(env);
        return ranks == null ? SlotFill.all(slots) : SlotFill.first(ranks, slots, "--hosts-from slurm");
    }

    /** Which slots get ranks: every listed one, the first N of them with -n N, or N local ranks without hosts. */
    private SlotFill slots(Map<String, String> env) {
        if (hosts == null) {
            if (ranks == null) {
                throw LauncherException.usage("no hosts: give -n N for N local ranks, or one of --hosts, --hostfile,"
                        + " --hosts-from");
            }
            SlotFill.checkCount(ranks);
            return SlotFill.all(LocalHosts.specs(ranks,
                    spec.commandLine().getParseResult().hasMatchedOption("--port-base"), "-n"));
        }
        List<HostSpec> slots = hosts.specs(env);
        return ranks == null ? SlotFill.all(slots) : SlotFill.first(ranks, slots, hosts.source());
    }
}
