package org.sperli.rankd;

/**
 * How a rank's process ends. A real rank ends its JVM ({@link #JVM}); a rankd that a test runs inside its own JVM
 * records the status instead, so that the test can drive it to its end, and past it, as a signal would.
 */
interface ProcessEnd {
    /** The JVM's own end: {@code System.exit} and {@code Runtime.halt}. */
    ProcessEnd JVM = new ProcessEnd() {
        @Override
        public void exit(int status) {
            System.exit(status);
        }

        @Override
        public void halt(int status) {
            Runtime.getRuntime().halt(status);
        }
    };

    /** Exits with {@code status}, the shutdown hooks run first ({@link RankEnd#stopByOperator} among them). */
    void exit(int status);

    /** Halts with {@code status}: no hook runs, nothing comes after it. */
    void halt(int status);
}
