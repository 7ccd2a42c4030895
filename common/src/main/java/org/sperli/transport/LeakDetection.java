package org.sperli.transport;

import io.netty.util.ResourceLeakDetector;

/**
 * Netty's check for buffers that were never released, which a rank process turns off unless the operator asks for it
 * ({@value #LEVEL_PROPERTY}, e.g. {@code -Dio.netty.leakDetection.level=paranoid} in {@code SPERLI_RANKD_JAVA_OPTS}).
 *
 * <p>Netty's default samples one buffer in 128 and records a stack trace for each, when it is made and when it is
 * released: in a rank in steady state those traces cost a measurable share of its CPU (see docs/performance.md, section
 * 3.10), the Throwables of buffers that this code releases without fail. That they are released is a test's work, not
 * every job's: {@code BufferLeakTest} runs every kind of traffic under the paranoid level and fails on a report.
 */
public final class LeakDetection {
    /** Netty's property for the level; with it (or its older spelling) set, the operator's level stays. */
    public static final String LEVEL_PROPERTY = "io.netty.leakDetection.level";
    private static final String OLD_LEVEL_PROPERTY = "io.netty.leakDetectionLevel";

    private LeakDetection() {
    }

    /** Turns the check off for this JVM unless a level was asked for; for a process that runs ranks. */
    public static void offUnlessAsked() {
        if (System.getProperty(LEVEL_PROPERTY) == null && System.getProperty(OLD_LEVEL_PROPERTY) == null) {
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        }
    }
}
