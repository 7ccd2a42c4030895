package org.sperli.launcher.testjob;

import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Arrays;
import org.sperli.Communicator;

/**
 * Ends this rank process at one step of the runtime's checkpoint procedure, as a power cut or SIGKILL would: no
 * BYE, no ABORT, files left as they are. It installs the runtime's own test hook ({@code CheckpointDriver.hooks},
 * package-private, called at {@code BEFORE_ACK}, {@code AFTER_ACKS}, {@code AFTER_COMMIT_WRITTEN} and
 * {@code BUDDY_CHUNK_SENT}) by reflection, so that no fault injection exists in the product itself; the job jar's
 * class loader is a child of rankd's, so the runtime's classes are reachable from the {@link Communicator} object.
 *
 * <p>The process ends with {@link Runtime#halt} status 137, the status a shell reports for SIGKILL: shutdown hooks
 * and finally blocks do not run.
 */
public final class CrashAtCheckpointStep {
    /** The status of a process killed by signal 9. */
    static final int KILLED = 128 + 9;

    private CrashAtCheckpointStep() {
    }

    /** Makes this rank end at {@code step} (a {@code CheckpointDriver.Step} name) of checkpoint {@code epoch}. */
    static void install(Communicator comm, String step, long epoch) {
        try {
            Field field = comm.getClass().getDeclaredField("checkpoints");
            field.setAccessible(true);
            Object driver = field.get(comm);
            Method hooks = Arrays.stream(driver.getClass().getDeclaredMethods())
                    .filter(m -> m.getName().equals("hooks") && m.getParameterCount() == 1).findFirst()
                    .orElseThrow(() -> new IllegalStateException("the runtime has no checkpoint hooks"));
            hooks.setAccessible(true);
            Class<?> type = hooks.getParameterTypes()[0];
            Object hook = Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
                    (proxy, method, args) -> switch (method.getName()) {
                        case "at" -> {
                            if (args[0].toString().equals(step) && (Long) args[1] == epoch) {
                                System.out.println("crashing at " + step + " of epoch " + epoch);
                                System.out.flush();
                                System.err.flush();
                                Runtime.getRuntime().halt(KILLED);
                            }
                            yield null;
                        }
                        case "hashCode" -> System.identityHashCode(proxy);
                        case "equals" -> proxy == args[0];
                        case "toString" -> "crash at " + step + " of epoch " + epoch;
                        default -> throw new UnsupportedOperationException(method.getName());
                    });
            hooks.invoke(driver, hook);
        } catch (NoSuchFieldException | IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("cannot install the crash hook: " + e, e);
        }
    }
}
