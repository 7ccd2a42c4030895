package org.sperli.rankd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The shutdown hook's look at the threads: a program's System.exit, and where, or a signal. */
class ExitCallTest {
    private static final StackTraceElement JOB = frame("com.example.Job", "run", 15);

    /** What the thread of {@code System.exit} shows while the hooks run (JDK 17 and 25 alike in these frames). */
    private static final StackTraceElement[] SYSTEM_EXIT = {
        frame("java.lang.Object", "wait", -2), frame("java.lang.Thread", "join", 1313),
        frame("java.lang.ApplicationShutdownHooks", "runHooks", 107),
        frame("java.lang.ApplicationShutdownHooks$1", "run", 46), frame("java.lang.Shutdown", "runHooks", 130),
        frame("java.lang.Shutdown", "exit", 173), frame("java.lang.Runtime", "exit", 115),
        frame("java.lang.System", "exit", 1860), JOB, frame("org.sperli.rankd.RankLife", "runJob", 290)};

    /** What the JVM's SIGTERM handler thread shows: it calls Shutdown.exit itself. */
    private static final StackTraceElement[] SIGNAL = {
        frame("java.lang.Object", "wait", -2), frame("java.lang.Shutdown", "runHooks", 130),
        frame("java.lang.Shutdown", "exit", 173), frame("java.lang.Terminator$1", "handle", 51),
        frame("jdk.internal.misc.Signal$1", "run", 219), frame("java.lang.Thread", "run", 840)};

    @Test
    void systemExitNamesTheFrameThatCalledIt() {
        assertEquals(JOB, ExitCall.callerOrNull(SYSTEM_EXIT));
    }

    @Test
    void runtimeExitCalledDirectlyNamesItsCaller() {
        StackTraceElement[] stack = {frame("java.lang.Shutdown", "exit", 173), frame("java.lang.Runtime", "exit", 115),
            JOB};
        assertEquals(JOB, ExitCall.callerOrNull(stack));
    }

    @Test
    void aSignalIsNoExitCall() {
        assertNull(ExitCall.callerOrNull(SIGNAL));
        Map<Thread, StackTraceElement[]> stacks = new LinkedHashMap<>();
        stacks.put(new Thread(() -> { }), SIGNAL);
        stacks.put(new Thread(() -> { }), new StackTraceElement[] {JOB});
        assertNull(ExitCall.callerOrNull(stacks, Thread.currentThread()));
    }

    @Test
    void anyThreadButTheHooksOwnCounts() {
        Thread program = new Thread(() -> { });
        Map<Thread, StackTraceElement[]> stacks = new LinkedHashMap<>();
        stacks.put(Thread.currentThread(), SYSTEM_EXIT);
        assertNull(ExitCall.callerOrNull(stacks, Thread.currentThread()), "the hook thread's own stack");
        stacks.put(program, SYSTEM_EXIT);
        assertEquals(JOB, ExitCall.callerOrNull(stacks, Thread.currentThread()));
    }

    private static StackTraceElement frame(String className, String method, int line) {
        String file = className.substring(className.lastIndexOf('.') + 1).replaceAll("\\$.*", "") + ".java";
        return new StackTraceElement(className, method, file, line);
    }
}
