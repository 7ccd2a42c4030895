package org.sperli.bench;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayDeque;

/**
 * Whether this JVM's JIT compiler has been quiet: less than {@value #QUIET_COMPILE_MS} ms of compiling (the compilers'
 * own time) in the last {@value #QUIET_WINDOW_MS} ms. A latency measured before that measures the compiler: SPERLI's
 * and JSSE's paths took 70 000-110 000 round trips (5-10 s) to be compiled here, and on JDK 25 5000 round trips left
 * the first stack measured still interpreted in part (docs/performance.md, sections 2 and 6.6).
 */
final class JitQuiet {
    static final long QUIET_WINDOW_MS = 2000;
    static final long QUIET_COMPILE_MS = 20;

    private final CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    /** (time, compile time) samples in ms, reaching back one window. */
    private final ArrayDeque<long[]> history = new ArrayDeque<>();

    /** Takes a sample now; true once the samples span a whole window with less compiling than the bound in it. */
    boolean quietNow() {
        if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
            // Nothing to wait for that can be seen: the caller's bound on the warm-up decides.
            return false;
        }
        long now = System.nanoTime() / 1_000_000;
        long compiling = jit.getTotalCompilationTime();
        history.addLast(new long[] {now, compiling});
        while (history.size() > 1 && now - secondOldest()[0] >= QUIET_WINDOW_MS) {
            history.removeFirst();
        }
        long[] oldest = history.peekFirst();
        return now - oldest[0] >= QUIET_WINDOW_MS && compiling - oldest[1] < QUIET_COMPILE_MS;
    }

    /** The compilers' time so far, in ms, or 0 where the JVM does not say. */
    long compileMs() {
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : 0;
    }

    private long[] secondOldest() {
        var it = history.iterator();
        it.next();
        return it.next();
    }
}
