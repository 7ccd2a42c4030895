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
 * but only for a moment, and C2 was a large part of a rank's CPU at start. Ten times the defaults (the setting before)
 * started ranks a little faster still but left a rank's own message path in C1's profiled code long after the start,
 * so that a barrier took more than twice as long; at three times it is as fast as with the defaults, and a job's own
 * hot loops still reach C2 within a fraction of a second.
 *
 * <p>C1's profiled compiles (tier 3) wait for five times the default calls and loop turns, for the same reason one
 * level down: C1 was the largest consumer of a rank's CPU at start after the main thread, much of it methods of the
 * TLS handshake that run a few hundred times and never again. A job's loop is then compiled by C1 after 300,000 turns
 * instead of 60,000 and its methods after 1,000 calls instead of 200, and C2 follows as before, so the interpreted
 * turns do not show in a job's time. The measurements are in docs/performance.md, section 3.8 ("The ranks' JIT
 * thresholds").
 */
public final class RankJvmDefaults {
    /** The options, in order. */
    /**
     * The host agent's JVM options: it starts processes and copies bytes, nothing that needs the optimising compiler
     * or a large heap (the same words as {@code --host-agent} in {@code bin/sperli-rankd}).
     */
    public static final List<String> AGENT_OPTIONS = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
            "-Xmx96m", "-XX:-UsePerfData");

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
     * cycles through hundreds of MB of young generation; with 4 KiB pages every first touch is a page fault. Huge
     * pages make such a rank's collectives and its start quicker for a few MiB more resident memory (see
     * docs/performance.md, section 3.9). A staged SSH rank gets it from the probe's reading of its host's mode.
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
