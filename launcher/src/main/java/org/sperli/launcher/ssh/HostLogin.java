package org.sperli.launcher.ssh;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.sperli.launcher.job.AgentChannel;
import org.sperli.launcher.report.Console;

/**
 * One SSH host as the launcher reaches it, whatever logs in ({@link HostLogins}): what runs its probe and staging,
 * and what starts its host agent. Kept by {@link SshRanks} for every incarnation of the job.
 */
interface HostLogin {
    /** For {@code -v}: how the launcher got there, such as {@code connected to node01 as alice}. */
    String describe();

    /** False once the login is known to be lost: a failure under it then counts as an unreachable host. */
    boolean isOpen();

    /** Whether the host still answers, known at the latest after {@code bound}. */
    CompletableFuture<Boolean> answersWithin(Duration bound);

    /** The shell for the host's probe and staging; closed by the caller when they are done. */
    RemoteShell shell();

    /** Starts {@code commandLine} (the host agent) on the host, its stderr lines going to {@code console}. */
    AgentChannel startAgent(String host, String commandLine, Console console) throws IOException;

    /** Ends the login at once, without waiting for the host: a dead host must not hold the caller. */
    void closeNow();

    /** Ends the login, waiting a bounded time; never fails. */
    void close();
}
