package org.sperli.testkit;

/**
 * Where {@code System.exit} calls of a job jar's classes land when the kit loads them ({@link ExitRewriter}): ranks
 * are threads of the test's JVM, which must not end. The call throws {@link ExitCalled} instead, which unwinds the
 * rank's program; the kit then ends that rank as the rank daemon ends one whose program called {@code System.exit}:
 * the program's failure, ABORT reason 7, status 3. Public only because the job's classes, in loaders of their own,
 * must reach it.
 */
public final class ExitTrap {
    private ExitTrap() {
    }

    /** Stands for {@code System.exit(status)}: never returns. */
    public static void exit(int status) {
        throw new ExitCalled(status);
    }

    /**
     * A job called {@code System.exit}. An Error, so that a program's {@code catch (Exception e)} does not hide it; its
     * stack trace's second frame is the place of the call.
     */
    public static final class ExitCalled extends Error {
        private static final long serialVersionUID = 1L;

        private final int status;

        ExitCalled(int status) {
            super("System.exit(" + status + ") called by the job");
            this.status = status;
        }

        /** The status the program asked for. */
        public int status() {
            return status;
        }

        /** The frame that called {@code System.exit}, or null when the stack does not show it. */
        public StackTraceElement caller() {
            StackTraceElement[] stack = getStackTrace();
            for (int i = 0; i < stack.length - 1; i++) {
                if (stack[i].getClassName().equals(ExitTrap.class.getName())) {
                    return stack[i + 1];
                }
            }
            return null;
        }
    }
}
