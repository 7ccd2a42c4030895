package org.sperli.launcher.ssh;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import org.sperli.jobspec.DescriptionLine;
import org.sperli.jobspec.JobDescription.HostEntry;
import org.sperli.launcher.exit.LauncherException;
import org.sperli.launcher.job.AgentLink;
import org.sperli.launcher.job.CommandWords;
import org.sperli.launcher.job.EphemeralRange;
import org.sperli.launcher.job.HostUnreachableException;
import org.sperli.launcher.job.JobJar;
import org.sperli.launcher.job.RankCommand;
import org.sperli.launcher.job.RankProcess;
import org.sperli.launcher.job.RankStarter;
import org.sperli.launcher.report.Console;

/**
 * Starts ranks over SSH: one logged-in session per host, reused by every rank and incarnation there (and made anew
 * when it was lost), the jar staged once per host, one exec channel for the host's agent, which starts its ranks
 * ({@code sperli-rankd --host-agent}). Without {@code --rankd}, a host whose
 * PATH has no {@code sperli-rankd} gets the rank daemon staged and run by its Java ({@link RemoteRankd}).
 */
public final class SshRanks implements RankStarter, AutoCloseable {
    /** The rank daemon's argument that makes it the host agent. */
    static final String AGENT_MODE = "--host-agent";
    /** Staging one jar on one host, SFTP included. */
    public static final Duration STAGE_TIMEOUT = Duration.ofMinutes(5);
    /** How long a session that served an earlier incarnation gets to answer, and a new login to that host. */
    public static final Duration PROBE_TIMEOUT = Duration.ofSeconds(3);

    /** Threads that end many hosts' agents at once: each waits for its agent's BYE. */
    private static final Executor AGENT_CLOSERS = runnable -> {
        Thread t = new Thread(runnable, "sperli-agent-close");
        t.setDaemon(true);
        t.start();
    };

    private final HostLogins hostLogins;
    private final RankCommand command;
    private final JobJar jar;
    private final List<String> jobArgs;
    /** The job's host names, which its ranks resolve to reach each other: each host's probe checks them. */
    private final HostNames hostNames;
    private final Console console;
    private final String remoteJavaOrNull;
    private final RankdClasspath rankdClasspath;
    /** Times a host's preparation for {@code -v}. */
    private final LongSupplier nanoClock;
    private final Map<String, HostLogin> logins = new HashMap<>();
    /** Per host, the command that starts its host agent, and the agent's link once it runs. */
    private final Map<String, String> agentCommands = new HashMap<>();
    private final Map<String, AgentLink> agents = new HashMap<>();
    /** Per host, the command that starts a rank there (what {@link RemoteRankd} found or staged). */
    private final Map<String, String> rankCommands = new HashMap<>();
    /**
     * Per host, what its probe found at login: its memory with its free swap (none for {@code --rankd CMD}, whose
     * ranks are not judged for it), and its ephemeral port range. The first login's comes before any rank of the job
     * ran there, so ranks of an earlier incarnation, which may still be ending while the next is prepared, do not count
     * against it.
     */
    private final Map<String, RemoteRankd.Prepared> probed = new HashMap<>();
    private boolean closed;

    /**
     * Ranks through the built-in client.
     *
     * @param settings the SSH set-up {@code transport} was started with: its config tells an alias of a host name
     * @param jobHosts the host names of the job's host list, which each host's probe checks its ranks can resolve
     * @param remoteJavaOrNull the Java that runs a staged rank daemon ({@code --remote-java}), or null for the host's
     * @param env supplies {@value RankdClasspath#VARIABLE}
     * @param nanoClock times each host's login and probe for {@code -v}
     */
    public SshRanks(SshTransport transport, SshSettings settings, List<String> jobHosts, RankCommand command,
                    JobJar jar, List<String> jobArgs, Console console, String remoteJavaOrNull,
                    Map<String, String> env, LongSupplier nanoClock) {
        this(new MinaLogins(transport, settings.config()), jobHosts, command, jar, jobArgs, console,
                remoteJavaOrNull, env, nanoClock);
    }

    /** Ranks through the operator's ssh program ({@code --ssh-command}); as the other constructor otherwise. */
    public SshRanks(SshCommand sshCommand, List<String> jobHosts, RankCommand command, JobJar jar,
                    List<String> jobArgs, Console console, String remoteJavaOrNull, Map<String, String> env,
                    LongSupplier nanoClock) {
        this(new CommandLogins(sshCommand), jobHosts, command, jar, jobArgs, console, remoteJavaOrNull, env,
                nanoClock);
    }

    SshRanks(HostLogins hostLogins, List<String> jobHosts, RankCommand command, JobJar jar, List<String> jobArgs,
             Console console, String remoteJavaOrNull, Map<String, String> env, LongSupplier nanoClock) {
        this.hostLogins = hostLogins;
        this.hostNames = new HostNames(jobHosts, hostLogins::aliasHostName);
        this.command = command;
        this.jar = jar;
        this.jobArgs = List.copyOf(jobArgs);
        this.console = console;
        this.remoteJavaOrNull = remoteJavaOrNull;
        this.rankdClasspath = RankdClasspath.of(env);
        this.nanoClock = nanoClock;
    }

    /**
     * Thread-safe for distinct hosts, which the launcher prepares at once; the lock guards only the maps, never a
     * login or a transfer.
     */
    @Override
    public void prepare(String host, List<Integer> ports) throws HostUnreachableException {
        // The host agent is the rank daemon's jar in another mode: every host needs it, whatever starts the ranks.
        rankdClasspath.prefetch();
        long beganNs = nanoClock.getAsLong();
        HostLogin login;
        synchronized (this) {
            login = logins.get(host);
        }
        if (login != null) {
            if (login.answersWithin(PROBE_TIMEOUT).join()) {
                judgeAgain(host, ports);
                ensureAgent(host, login);
                return;
            }
            // A host that answered before and stopped: most likely cut off. A short probe decides, so that its ranks
            // move at once instead of after the long bounds of a first login.
            synchronized (this) {
                logins.remove(host);
                // Its agent goes with the session: the channel's end ends the agent's input, if it still runs.
                agents.remove(host);
            }
            login.closeNow();
            console.note("SSH session to " + host + " does not answer within " + PROBE_TIMEOUT.toSeconds()
                    + " s; connecting again");
            login = hostLogins.reconnect(host, PROBE_TIMEOUT);
        } else {
            login = hostLogins.connect(host);
        }
        long loggedInNs = nanoClock.getAsLong();
        console.detail(login.describe());
        String rankCommand;
        RemoteRankd.Prepared prepared;
        try (RemoteShell shell = login.shell()) {
            prepared = prepareRankd(host, ports, login, shell);
            stageJar(host, login, shell, prepared.jobJarSize());
            rankCommand = command.isRankDaemon() ? prepared.command() : null;
        }
        synchronized (this) {
            if (closed) {
                // The launcher ended (another host refused the job, say) while this one was being prepared.
                login.close();
                return;
            }
            rankCommands.put(host, rankCommand);
            agentCommands.put(host, prepared.agentCommand() + " " + AGENT_MODE + " --host " + CommandWords.quote(host));
            probed.put(host, prepared);
            logins.put(host, login);
        }
        ensureAgent(host, login);
        long readyNs = nanoClock.getAsLong();
        // Where a host's time goes: a slow login points at the network or the server, a slow probe at the host's
        // login shell (its startup file runs before every command) or a copy.
        console.detail(host + " ready after " + seconds(readyNs - beganNs) + " s: login "
                + seconds(loggedInNs - beganNs) + " s, probe and staging " + seconds(readyNs - loggedInNs) + " s");
    }

    /**
     * A host that is ready already, judged for ranks on {@code ports} (more than before when ranks moved to it from
     * a host that was lost) by what its probe found at login, without another probe.
     */
    private void judgeAgain(String host, List<Integer> ports) {
        RemoteRankd.Prepared found;
        synchronized (this) {
            found = probed.get(host);
        }
        RemoteRankd.judge(host, ports, found == null ? OptionalLong.empty() : found.availableKib(),
                found == null ? Optional.<EphemeralRange>empty() : found.ephemeral());
    }

    private static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.2f", nanos / 1e9);
    }

    /**
     * What the host has or gets staged to run the rank daemon (the host agent, and the ranks unless {@code --rankd
     * CMD} names another command) for its ranks on {@code ports}, found by the probe that also sizes the host's copy
     * of the job jar, its memory and its ephemeral port range, and judges the host by them before anything is staged
     * (ranks of {@code --rankd CMD} may be anything, and are not judged for memory).
     */
    private RemoteRankd.Prepared prepareRankd(String host, List<Integer> ports, HostLogin login, RemoteShell shell)
            throws HostUnreachableException {
        return bounded(host, login, "preparing the rank daemon", "cannot prepare the rank daemon on " + host,
                () -> RemoteRankd.prepare(shell, host, ports, hostNames, command.isRankDaemon(), remoteJavaOrNull,
                        rankdClasspath, JarStager.remotePath(jar), console));
    }

    /**
     * Copies the job jar to {@code host} unless the probe found a copy of its size there ({@code sizeOnHost}, -1 when
     * none or not asked): the rank checks its SHA-256 before it loads a class.
     */
    private void stageJar(String host, HostLogin login, RemoteShell shell, long sizeOnHost)
            throws HostUnreachableException {
        boolean copied = sizeOnHost != jar.size() && bounded(host, login, "staging the job jar",
                "cannot stage the job jar on " + host + " in ~/" + JarStager.CACHE_DIR,
                () -> JarStager.stage(shell, jar));
        console.detail(copied ? "staged job jar on " + host + " as ~/" + JarStager.remotePath(jar)
                : "job jar already on " + host + " as ~/" + JarStager.remotePath(jar));
    }

    /** Work on a host's session that reads and writes over SSH. */
    private interface SessionWork<T> {
        T run() throws IOException;
    }

    /**
     * Runs {@code work} for at most {@link #STAGE_TIMEOUT}. A session that is lost meanwhile, or a bound that runs
     * out, makes the host unreachable (its ranks move); any other failure ends the start, named by {@code failed}.
     * The login is closed on every failure.
     */
    private static <T> T bounded(String host, HostLogin login, String doing, String failed,
                                 SessionWork<T> work) throws HostUnreachableException {
        CompletableFuture<T> running = CompletableFuture.supplyAsync(() -> {
            try {
                return work.run();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        try {
            return running.get(STAGE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            login.close();
            throw new HostUnreachableException(host, doing + " took over " + STAGE_TIMEOUT.toMinutes() + " min", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            login.close();
            throw LauncherException.startFailed("interrupted while " + doing + " on " + host, e);
        } catch (ExecutionException e) {
            boolean lost = !login.isOpen();
            login.close();
            if (e.getCause() instanceof LauncherException refused) {
                throw refused;
            }
            if (e.getCause() instanceof UncheckedIOException io
                    && io.getCause() instanceof CommandLogins.Unreachable unreachable) {
                throw new HostUnreachableException(host, unreachable.getMessage(), unreachable);
            }
            if (lost) {
                throw new HostUnreachableException(host, "connection lost while " + doing + ": "
                        + SshTransport.reason(e), e);
            }
            throw LauncherException.startFailed(failed + ": " + SshTransport.reason(e), e);
        }
    }

    /**
     * Starts the host's agent through {@code login} unless one runs there: after the first login, and when the agent
     * of an earlier incarnation was lost while the session stayed (a restart then costs no new login).
     */
    private void ensureAgent(String host, HostLogin login) throws HostUnreachableException {
        String agentCommand;
        synchronized (this) {
            AgentLink running = agents.get(host);
            if (running != null && running.isOpen()) {
                return;
            }
            agentCommand = agentCommands.get(host);
        }
        AgentLink link;
        try {
            console.detail("host agent on " + host + ": " + agentCommand);
            link = AgentLink.open(login.startAgent(host, agentCommand, console), host, console);
        } catch (IOException e) {
            if (!login.isOpen()) {
                throw new HostUnreachableException(host, "connection lost while starting the host agent: "
                        + SshTransport.reason(e), e);
            }
            throw LauncherException.startFailed("cannot start the host agent on " + host + ": "
                    + SshTransport.reason(e), e);
        }
        synchronized (this) {
            if (closed) {
                link.close();
                return;
            }
            agents.put(host, link);
        }
    }

    @Override
    public RankProcess start(int rank, long incarnation, HostEntry entry, DescriptionLine descriptionLine)
            throws IOException {
        AgentLink agent;
        String rankCommand;
        synchronized (this) {
            agent = agents.get(entry.host());
            rankCommand = rankCommands.get(entry.host());
        }
        if (agent == null || !agent.isOpen()) {
            throw new IOException("no host agent runs on " + entry.host());
        }
        String line = rankCommand == null ? command.remoteLine(jar.sha256Hex(), JarStager.remotePath(jar), jobArgs)
                : command.remoteLine(rankCommand, jar.sha256Hex(), JarStager.remotePath(jar), jobArgs);
        console.detail("rank " + rank + " on " + entry.host() + ": " + line);
        // The remote line is written for a shell, as the login shell ran it when each rank had a channel of its own.
        return agent.start(rank, incarnation, List.of("/bin/sh", "-c", "exec " + line), List.of(), descriptionLine);
    }

    /**
     * Ends every host agent (SHUTDOWN to all at once, each then has {@link AgentLink#SHUTDOWN_WAIT} to say BYE),
     * then every session and the client.
     */
    @Override
    public void close() {
        List<AgentLink> links;
        synchronized (this) {
            closed = true;
            links = List.copyOf(agents.values());
            agents.clear();
        }
        links.stream().map(link -> CompletableFuture.runAsync(link::close, AGENT_CLOSERS)).toList()
                .forEach(CompletableFuture::join);
        synchronized (this) {
            for (HostLogin login : logins.values()) {
                login.close();
            }
            logins.clear();
        }
        hostLogins.close();
    }
}
