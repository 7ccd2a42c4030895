package org.sperli.rankd;

import java.io.InputStream;
import java.util.Optional;
import org.sperli.jobspec.RankExit;
import org.sperli.jvm.Clock;
import org.sperli.rankd.agent.CallHomeTarget;
import org.sperli.rankd.agent.HostAgent;
import org.sperli.transport.LeakDetection;
import org.sperli.transport.NettyLogging;

/**
 * {@code sperli-rankd --host-agent --host NAME...} runs the host agent instead ({@link HostAgent}).
 *
 * <p>{@code sperli-rankd [--deny-hosts FILE] [--jar-sha256 HEX] [--checkpoint-dir DIR] [--tls-engine NAME] JAR
 * [job args...]}: one rank of a SPERLI job (the rank command of protocol section 13.1). The
 * launcher starts it and writes the rank's job description, one line of hex digits, to its standard input. Exit
 * statuses are those of {@link org.sperli.jobspec.RankExit}; the last line on standard error starts with the H code
 * when there is one.
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        if (HostAgent.isAgent(args)) {
            // The host agent starts and watches ranks; it needs none of a rank's set-up below. Under Slurm it calls
            // home first (TLS and MUNGE live here, not in the agent's package).
            Optional<CallHomeTarget> target = HostAgent.callHomeTarget(args, System.getenv());
            System.exit(target.isPresent() ? AgentCallHome.runAgent(args, target.get())
                    : HostAgent.runThisProcess(args));
        }
        // Before anything reads java.io.tmpdir: the JDK, Netty and ACCP each keep the value they read first.
        String tmpdirWarning = GivenTmpdir.apply(System.getenv(), System.getProperties());
        // Then: the leak detector's class takes its logger when initialised.
        NettyLogging.useJdkLogging();
        LeakDetection.offUnlessAsked();
        // The one clock of this rank: everything below reads it, nothing reads the system's clocks itself.
        Clock clock = Clock.SYSTEM;
        RankLife life = RankLife.forThisProcess(clock);
        if (tmpdirWarning != null) {
            System.err.println(tmpdirWarning);
        }
        // The program reads an empty standard input: the rank's own carries its description and then only says that
        // the launcher lives (LauncherWatch), so a program reading it would wait for the launcher's end.
        System.setIn(InputStream.nullInputStream());
        int status = life.run(args);
        if (status < 0) {
            // The operator's stop ended the rank and halts the process; exiting here would only wait for it.
            return;
        }
        if (status == RankExit.COMPLETED) {
            // A completed rank prints no last line, so a warning of the archive's cannot hide a verdict.
            RankArchive.ofThisJvm(System.err::println).ifPresent(a -> a.makeIfMissing(clock.instant()));
        }
        life.end().exit(status);
    }
}
