package org.sperli.launcher.ssh;

import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.sshd.client.session.ClientSession;
import org.sperli.jobspec.JobDescription.HostEntry;
import org.sperli.launcher.LauncherException;
import org.sperli.launcher.job.HostUnreachableException;
import org.sperli.launcher.job.JobJar;
import org.sperli.launcher.job.RankCommand;
import org.sperli.launcher.job.RankProcess;
import org.sperli.launcher.job.RankStarter;
import org.sperli.launcher.report.Console;

/**
 * Starts ranks over SSH: one logged-in session per host, reused by every rank and incarnation there (and made anew
 * when it was lost), the jar staged once per host, one exec channel per rank.
 */
public final class SshRanks implements RankStarter, AutoCloseable {
    /** Staging one jar on one host, SFTP included. */
    public static final Duration STAGE_TIMEOUT = Duration.ofMinutes(5);
    /** How long a session that served an earlier incarnation gets to answer, and a new login to that host. */
    public static final Duration PROBE_TIMEOUT = Duration.ofSeconds(3);

    private final SshTransport transport;
    private final RankCommand command;
    private final JobJar jar;
    private final List<String> jobArgs;
    private final Console console;
    private final Map<String, ClientSession> sessions = new HashMap<>();

    public SshRanks(SshTransport transport, RankCommand command, JobJar jar, List<String> jobArgs,
                    Console console) {
        this.transport = transport;
        this.command = command;
        this.jar = jar;
        this.jobArgs = List.copyOf(jobArgs);
        this.console = console;
    }

    @Override
    public synchronized void prepare(String host) throws HostUnreachableException {
        ClientSession session = sessions.get(host);
        if (session != null) {
            if (SshTransport.answers(session, PROBE_TIMEOUT)) {
                return;
            }
            // A host that answered before and stopped: most likely cut off. A short probe decides, so that its ranks
            // move at once instead of after the long bounds of a first login.
            sessions.remove(host);
            SshTransport.closeNow(session);
            console.note("SSH session to " + host + " does not answer within " + PROBE_TIMEOUT.toSeconds()
                    + " s; connecting again");
            session = transport.reconnect(host, PROBE_TIMEOUT);
        } else {
            session = transport.connect(host);
        }
        console.detail("connected to " + host + " as " + session.getUsername());
        stageJar(host, session);
        sessions.put(host, session);
    }

    private void stageJar(String host, ClientSession session) throws HostUnreachableException {
        CompletableFuture<Boolean> staging = CompletableFuture.supplyAsync(() -> {
            try {
                return JarStager.stage(session, jar);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        try {
            boolean copied = staging.get(STAGE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            console.detail(copied ? "staged job jar on " + host + " as ~/" + JarStager.remotePath(jar)
                    : "job jar already on " + host + " as ~/" + JarStager.remotePath(jar));
        } catch (TimeoutException e) {
            SshTransport.closeQuietly(session);
            throw new HostUnreachableException(host, "staging the job jar took over " + STAGE_TIMEOUT.toMinutes()
                    + " min", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            SshTransport.closeQuietly(session);
            throw LauncherException.startFailed("interrupted while staging the job jar on " + host, e);
        } catch (ExecutionException e) {
            boolean lost = !session.isOpen();
            SshTransport.closeQuietly(session);
            if (lost) {
                throw new HostUnreachableException(host, "connection lost while staging the job jar: "
                        + SshTransport.reason(e), e);
            }
            throw LauncherException.startFailed("cannot stage the job jar on " + host + " in ~/"
                    + JarStager.CACHE_DIR + ": " + SshTransport.reason(e), e);
        }
    }

    @Override
    public RankProcess start(int rank, long incarnation, HostEntry entry, byte[] hexLine) throws IOException {
        ClientSession session;
        synchronized (this) {
            session = sessions.get(entry.host());
        }
        if (session == null || !session.isOpen()) {
            throw new IOException("no SSH session to " + entry.host());
        }
        String line = command.remoteLine(jar.sha256Hex(), JarStager.remotePath(jar), jobArgs);
        console.detail("rank " + rank + " on " + entry.host() + ": " + line);
        return SshRankProcess.start(rank, incarnation, entry.host(), session, line, hexLine, console);
    }

    @Override
    public synchronized void close() {
        for (ClientSession session : sessions.values()) {
            SshTransport.closeQuietly(session);
        }
        sessions.clear();
        transport.close();
    }
}
