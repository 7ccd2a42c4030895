package org.sperli.launcher.job;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The JVM options every rank JVM starts with, before the operator's own ({@value RankCommand#JAVA_OPTS_VARIABLE},
 * which come later on the line and so win): local ranks ({@link RankCommand}), ranks staged over SSH, and the
 * {@code sperli-rankd} scripts, whose copy is {@code SPERLI_RANKD_DEFAULT_OPTS} in the distribution's
 * {@code lib/sperli.sh} ({@code RankJvmDefaultsTest} keeps the two equal).
 *
 * <p>C2 compiles a method after three times the JVM's default number of calls and loop turns. A rank's start-up code
 * (the TLS stack, the native provider's self-tests, the description check) runs hot enough for C2 under the defaults
 * but only for a moment, and C2 was a quarter of a rank's CPU at start. Ten times the defaults (the setting until
 * December 2026) made hello on 8 local ranks 0.83 (JDK 17) and 0.87 (JDK 25) of the CPU and wall time, but left a
 * rank's own message path in C1's profiled code long after the start: a barrier on 8 ranks as processes (2 cores)
 * took a median 0.86 ms per call after 30 to 60 s of warm-up, against 0.35 ms with the JVM's defaults, and a profile
 * of the ranks 90 s in still had a fifth of their samples in C1 code (SslHandler.wrap, the frame decoder, the header
 * check). Three times: the barrier 0.37 ms (median of 4 runs, as the defaults), hello on 8 ranks 1.03 of the wall
 * and CPU time of ten times (6 paired runs; the defaults 1.14). A job's own hot loops reach C2 within about 120,000
 * turns.
 *
 * <p>C1's profiled compiles (tier 3) wait for five times the default calls and loop turns, for the same reason one
 * level down: C1 was the largest consumer of a rank's CPU at start after the main thread (29 % of a hello job's rank
 * CPU on 4 ranks, 1,250 compiles a rank), much of it methods of the TLS handshake that run a few hundred times and
 * never again. Hello on 8 local ranks, paired runs against the tier-4 thresholds alone (then ten times the
 * defaults): 0.96 of the wall time on JDK 17 and 0.92 on JDK 25 (4 ranks, JDK 17: 0.95); ten times the defaults
 * measured the same as five (1.00). With the tier-4 thresholds at three times, the barrier above measured the same
 * with and without them (0.32 and 0.37 ms against 0.38 and 0.35 ms). A job's loop is compiled by C1 after 300,000
 * turns instead of 60,000 and its methods after 1,000 calls instead of 200, and C2 follows as before: the pi example
 * (one loop of 50 million turns a rank, 2 ranks) took 0.98 of the wall time against the JVM's tier-3 defaults, so
 * the interpreted turns did not show.
 */
public final class RankJvmDefaults {
    /** The options, in order. */
    public static final List<String> OPTIONS = List.of(
            "-XX:Tier3InvocationThreshold=1000",
            "-XX:Tier3MinInvocationThreshold=500",
            "-XX:Tier3CompileThreshold=10000",
            "-XX:Tier3BackEdgeThreshold=300000",
            "-XX:Tier4InvocationThreshold=15000",
            "-XX:Tier4MinInvocationThreshold=1800",
            "-XX:Tier4CompileThreshold=45000",
            "-XX:Tier4BackEdgeThreshold=120000");

    /** The kernel's switch for transparent huge pages, such as {@code always [madvise] never}: the mode in brackets. */
    public static final Path THP_MODE = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");
    /** The JVM's request for huge pages behind its heap where the kernel gives them only on request. */
    public static final String HUGE_PAGES = "-XX:+UseTransparentHugePages";

    private RankJvmDefaults() {
    }

    /**
     * What a rank on this host adds to {@link #OPTIONS}: {@value #HUGE_PAGES} where the kernel's mode ({@code
     * modeFile}) is {@code madvise}, nothing otherwise ({@code always} needs no request, and a JVM asked where the
     * kernel has none prints a warning at every start). A rank that allocates its messages' arrays at a high rate
     * cycles through hundreds of MB of young generation; with 4 KiB pages every first touch is a page fault. Measured
     * on this 2-core machine (JDK 17): allreduce of 1 MiB on 8 ranks as processes, 28-30 ms per call against 51-55 ms
     * (two and three runs); a hello job on 8 local ranks 0.93 of the wall and CPU time (medians of 5 paired runs), for
     * 11 MiB more resident memory per rank. A staged SSH rank gets it from the probe's reading of its host's mode.
     */
    public static List<String> forThisHost(Path modeFile) {
        try {
            return hugePagesOnRequest(Files.readString(modeFile, StandardCharsets.US_ASCII)) ? List.of(HUGE_PAGES)
                    : List.of();
        } catch (IOException noSuchSwitch) {
            return List.of();
        }
    }

    /** Whether {@code modeLine} (the switch's content) says the kernel gives huge pages on request only. */
    public static boolean hugePagesOnRequest(String modeLine) {
        return modeLine.contains("[madvise]");
    }
}
