package org.sperli.launcher.job;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.sperli.jobspec.DescriptionLine;
import org.sperli.jobspec.JobDescription.HostEntry;
import org.sperli.jobspec.RefusedHostPolicy;
import org.sperli.launcher.exit.LauncherException;
import org.sperli.launcher.report.Console;

/**
 * Starts ranks as child processes of the launcher (hosts localhost and 127.0.0.1 without --ssh). The child gets the
 * launcher's environment, except that SPERLI_REFUSED_HOSTS is the launcher's own view of it (so a rank refuses the
 * same hosts), with the {@code -x} variables of the command set on top (an operator's {@code -x} wins, as it does on
 * SSH hosts), and the deny file is passed on with {@code --deny-hosts}.
 */
public final class LocalRanks implements RankStarter {
    /** How long a rank's output may go on after the rank ended (a grandchild holding the pipe) before it is cut. */
    public static final long OUTPUT_DRAIN_MS = 2000;

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
        ProcessBuilder builder = new ProcessBuilder(command.localArgv(rank, denyFileOrNull, jar, jobArgs));
        String refused = environment.get(RefusedHostPolicy.ENV_VARIABLE);
        if (refused == null) {
            builder.environment().remove(RefusedHostPolicy.ENV_VARIABLE);
        } else {
            builder.environment().put(RefusedHostPolicy.ENV_VARIABLE, refused);
        }
        builder.environment().putAll(command.exports().variables());
        Process process = builder.start();
        startedAny = true;
        Local local = new Local(rank, incarnation, process, console);
        OutputStream stdin = process.getOutputStream();
        try {
            line.writeTo(stdin);
            stdin.flush();
        } catch (IOException e) {
            // The rank ended before it read its line; its exit status and stderr say why.
            console.detail("rank " + rank + ": stdin closed early: " + e.getMessage());
        }
        // Open while this launcher lives: its end tells the rank that nobody supervises it any more (rankd stops).
        process.onExit().thenRun(() -> closeQuietly(stdin));
        return local;
    }

    /** Whether any rank was started here (a job on SSH hosts only starts none). */
    public boolean startedAny() {
        return startedAny;
    }

    private static void closeQuietly(OutputStream stream) {
        try {
            stream.close();
        } catch (IOException e) {
            // The pipe of an ended process: nothing is left to tell it.
        }
    }

    /** A rank that is a child process. */
    private static final class Local extends RankOutputs {
        private final Process process;

        Local(int rank, long incarnation, Process process, Console console) {
            super(rank, incarnation, console);
            this.process = process;
            CompletableFuture<Void> out = pump(process.getInputStream(), stdout(), "stdout");
            CompletableFuture<Void> err = pump(process.getErrorStream(), stderr(), "stderr");
            CompletableFuture<Void> drained = CompletableFuture.allOf(out, err);
            process.onExit()
                    .thenCompose(p -> drained.completeOnTimeout(null, OUTPUT_DRAIN_MS, TimeUnit.MILLISECONDS))
                    .thenRun(() -> exitedWith(process.exitValue()));
        }

        private CompletableFuture<Void> pump(InputStream in, RankOutput sink, String name) {
            CompletableFuture<Void> done = new CompletableFuture<>();
            Thread t = new Thread(() -> {
                try (in; sink) {
                    in.transferTo(sink);
                } catch (IOException e) {
                    // The pipe closed under us: the process is gone, nothing more to read.
                } finally {
                    done.complete(null);
                }
            }, "rank-" + rank() + "-" + name);
            t.setDaemon(true);
            t.start();
            return done;
        }

        @Override
        public String where() {
            return "local pid " + process.pid();
        }

        @Override
        public void terminate() {
            // SIGTERM only: Process.destroy would also close the rank's stdin, which it reads as its launcher gone
            // and would then name that, not the operator's stop, as its end.
            process.toHandle().destroy();
        }

        @Override
        public void kill() {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
    }
}
