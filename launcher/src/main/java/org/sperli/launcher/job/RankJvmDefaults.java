package org.sperli.launcher.job;

import java.util.List;

/**
 * The JVM options every rank JVM starts with, before the operator's own ({@value RankCommand#JAVA_OPTS_VARIABLE},
 * which come later on the line and so win): local ranks ({@link RankCommand}), ranks staged over SSH, and the
 * {@code sperli-rankd} scripts, whose copy is {@code SPERLI_RANKD_DEFAULT_OPTS} in the distribution's
 * {@code lib/sperli.sh} ({@code RankJvmDefaultsTest} keeps the two equal).
 *
 * <p>C2 compiles a method after ten times the JVM's default number of calls and loop turns. A rank's start-up code
 * (the TLS stack, the native provider's self-tests, the description check) runs hot enough for C2 under the defaults
 * but only for a moment, and C2 was a quarter of a rank's CPU at start; with these thresholds a hello job on 8 local
 * ranks took 0.83 (JDK 17) and 0.87 (JDK 25) of the CPU and wall time, medians of paired runs. A job's own hot
 * loops still reach C2 within about 400,000 turns, well under a second.
 */
public final class RankJvmDefaults {
    /** The options, in order. */
    public static final List<String> OPTIONS = List.of(
            "-XX:Tier4InvocationThreshold=50000",
            "-XX:Tier4MinInvocationThreshold=6000",
            "-XX:Tier4CompileThreshold=150000",
            "-XX:Tier4BackEdgeThreshold=400000");

    private RankJvmDefaults() {
    }
}
