package org.sperli.rankd;

import java.util.Map;

/**
 * Tells, on the shutdown hook, a program's {@code System.exit} from a signal. Both run the hooks, but only a call
 * leaves a thread inside {@code Runtime.exit} while they run (the JVM's handler of SIGTERM and SIGINT calls
 * {@code Shutdown.exit} itself), and that thread's next frame down is the place of the call. The status the program
 * asked for is not on any stack, so it is not named.
 */
final class ExitCall {
    private ExitCall() {
    }

    /** Where a thread other than {@code hook} called {@code System.exit} or {@code Runtime.exit}; null if none did. */
    static StackTraceElement callerOrNull(Map<Thread, StackTraceElement[]> stacks, Thread hook) {
        for (Map.Entry<Thread, StackTraceElement[]> thread : stacks.entrySet()) {
            if (thread.getKey() != hook) {
                StackTraceElement caller = callerOrNull(thread.getValue());
                if (caller != null) {
                    return caller;
                }
            }
        }
        return null;
    }

    /** The frame below the outermost exit call of {@code stack} (System.exit calls Runtime.exit); null if none. */
    static StackTraceElement callerOrNull(StackTraceElement[] stack) {
        for (int i = stack.length - 2; i >= 0; i--) {
            if (isExit(stack[i])) {
                return stack[i + 1];
            }
        }
        return null;
    }

    private static boolean isExit(StackTraceElement frame) {
        String owner = frame.getClassName();
        return "exit".equals(frame.getMethodName())
                && ("java.lang.System".equals(owner) || "java.lang.Runtime".equals(owner));
    }
}
