package org.sperli.launcher.job;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.sperli.jobspec.DescriptionLine;
import org.sperli.jobspec.JobDescription.HostEntry;
import org.sperli.jobspec.RefusedHostPolicy;
import org.sperli.launcher.exit.LauncherException;
import org.sperli.launcher.report.Console;

/**
 * Starts ranks on this host (hosts localhost and 127.0.0.1 without --ssh) through a host agent that is a child of the
 * launcher ({@link LocalAgent}), as ranks on SSH hosts are started through theirs. A rank gets the launcher's
 * environment, except that SPERLI_REFUSED_HOSTS is the launcher's own view of it (so a rank refuses the
 * same hosts), with the {@code -x} variables of the command set on top (an operator's {@code -x} wins, as it does on
 * SSH hosts), and the deny file is passed on with {@code --deny-hosts}.
 */
public final class LocalRanks implements RankStarter, AutoCloseable {
    private final RankCommand command;
    private final JobJar jar;
    private final List<String> jobArgs;
    private final Path denyFileOrNull;
    private final Map<String, String> environment;
    private final Console console;
    /** Where this host's memory is read when ranks move here ({@link HostMemory#MEMINFO}, a file in tests). */
    private final Path meminfo;
    /** Where this host's ephemeral port range is read then ({@link EphemeralPorts#PROC_IPV4}, a folder in tests). */
    private final Path ipv4Dir;
    private volatile boolean startedAny;
    private AgentLink agent;

    public LocalRanks(RankCommand command, JobJar jar, List<String> jobArgs, Path denyFileOrNull,
                      Map<String, String> environment, Console console) {
        this(command, jar, jobArgs, denyFileOrNull, environment, console, HostMemory.MEMINFO,
                EphemeralPorts.PROC_IPV4);
    }

    LocalRanks(RankCommand command, JobJar jar, List<String> jobArgs, Path denyFileOrNull,
               Map<String, String> environment, Console console, Path meminfo, Path ipv4Dir) {
        this.meminfo = meminfo;
        this.ipv4Dir = ipv4Dir;
        this.command = command;
        this.jar = jar;
        this.jobArgs = List.copyOf(jobArgs);
        this.denyFileOrNull = denyFileOrNull;
        this.environment = environment;
        this.console = console;
    }

    /**
     * Judges this host for local ranks on {@code ports}, as the launcher did before the start, now that ranks of a
     * lost host moved here: its memory for ranks of the rank daemon ({@code --rankd CMD} may start anything, and is
     * not judged by it), the ports by its ephemeral range whatever the rank command.
     */
    @Override
    public void prepare(String host, List<Integer> ports) {
        if (command.isRankDaemon()) {
            HostMemory.localRefusal(ports.size(), meminfo).ifPresent(why -> {
                throw LauncherException.startFailed(why, null);
            });
        }
        EphemeralPorts.localRefusal(ports, EphemeralPorts.read(ipv4Dir)).ifPresent(why -> {
            throw LauncherException.startFailed(why, null);
        });
    }

    @Override
    public RankProcess start(int rank, long incarnation, HostEntry entry, DescriptionLine line) throws IOException {
        List<String> env = new ArrayList<>();
        String refused = environment.get(RefusedHostPolicy.ENV_VARIABLE);
        env.add(refused == null ? RefusedHostPolicy.ENV_VARIABLE : RefusedHostPolicy.ENV_VARIABLE + "=" + refused);
        command.exports().variables().forEach((name, value) -> env.add(name + "=" + value));
        RankProcess p = agent().start(rank, incarnation, command.localArgv(rank, denyFileOrNull, jar, jobArgs), env,
                line);
        startedAny = true;
        return p;
    }

    /** This host's agent, started with the first rank, and again when it was lost. */
    private synchronized AgentLink agent() throws IOException {
        if (agent == null || !agent.isOpen()) {
            agent = AgentLink.open(LocalAgent.start(List.copyOf(HostPlan.LOCAL_NAMES), console), "localhost",
                    console);
        }
        return agent;
    }

    /** Ends the agent and with it every rank still running here. */
    @Override
    public synchronized void close() {
        if (agent != null) {
            agent.close();
            agent = null;
        }
    }

    /** Whether any rank was started here (a job on SSH hosts only starts none). */
    public boolean startedAny() {
        return startedAny;
    }
}
