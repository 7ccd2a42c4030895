package org.sperli.bench;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.sperli.jobspec.DescriptionLine;
import org.sperli.jobspec.JobDescription.HostEntry;
import org.sperli.launcher.job.AgentLink;
import org.sperli.launcher.job.HostUnreachableException;
import org.sperli.launcher.job.RankProcess;
import org.sperli.launcher.job.RankStarter;
import org.sperli.launcher.report.Console;

/**
 * The launcher's starter of remote ranks with a {@link StandInAgent} on every host instead of an SSH login: each
 * host's agent link is the launcher's own {@link AgentLink}, opened when the host is prepared, and a rank is started
 * on it as {@code SshRanks} starts one (the rank command through {@code /bin/sh -c}, no environment changes).
 */
final class StandInRanks implements RankStarter, AutoCloseable {
    private static final List<String> RANK_COMMAND = List.of("/bin/sh", "-c", "exec sperli-rankd JAR");

    private final StandInJob job;
    private final Console console;
    private final Map<String, AgentLink> agents = new ConcurrentHashMap<>();

    StandInRanks(StandInJob job, Console console) {
        this.job = job;
        this.console = console;
    }

    @Override
    public void prepare(String host, List<Integer> ports) throws HostUnreachableException {
        if (agents.containsKey(host)) {
            return;
        }
        try {
            agents.put(host, AgentLink.open(new StandInAgent(host, 1000L * (agents.size() + 1), job), host,
                    console));
        } catch (IOException e) {
            throw new HostUnreachableException(host, "stand-in agent: " + e.getMessage(), e);
        }
    }

    @Override
    public RankProcess start(int rank, long incarnation, HostEntry entry, DescriptionLine line) throws IOException {
        AgentLink agent = agents.get(entry.host());
        if (agent == null) {
            throw new IOException("no stand-in agent on " + entry.host());
        }
        return agent.start(rank, incarnation, RANK_COMMAND, List.of(), line);
    }

    @Override
    public void close() {
        agents.values().forEach(AgentLink::close);
        agents.clear();
    }
}
