package org.sperli.testkit;

import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.sperli.rankd.job.ProgramEnd;

/**
 * Says why the test's JVM ends when a rank of a job given as a class or a supplier calls {@code System.exit}: such a
 * job runs in the test's own classes, where the call cannot be trapped (a job jar's can, {@link ExitRewriter}). A
 * shutdown hook, installed for the run, names the rank thread and the place of the call on the original stderr.
 */
final class ExitWatch implements AutoCloseable {
    private final List<Thread> ranks = new CopyOnWriteArrayList<>();
    private final PrintStream err = OutputRouting.originalErr();
    private final Thread hook = new Thread(this::onExit, "sperli-testkit-exit-watch");

    private ExitWatch() {
    }

    static ExitWatch start() {
        ExitWatch watch = new ExitWatch();
        Runtime.getRuntime().addShutdownHook(watch.hook);
        return watch;
    }

    void add(Thread rank) {
        ranks.add(rank);
    }

    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // The JVM is ending; the hook runs or ran.
        }
    }

    private void onExit() {
        for (Thread t : ranks) {
            StackTraceElement[] stack = t.getStackTrace();
            for (int i = stack.length - 2; i >= 0; i--) {
                if ("exit".equals(stack[i].getMethodName()) && ("java.lang.System".equals(stack[i].getClassName())
                        || "java.lang.Runtime".equals(stack[i].getClassName()))) {
                    err.println("sperli-testkit: " + t.getName() + " " + ProgramEnd.exitCalled("System.exit",
                            stack[i + 1]) + "; a job given as a class or supplier runs in the test's JVM, which this"
                            + " ends: give it as a job jar (SperliTestKit.jar), whose System.exit fails its rank");
                    err.flush();
                    return;
                }
            }
        }
    }
}
