package org.sperli.rankd.job;

/**
 * The job's own code threw: its static initialiser, its constructor or {@code run}. The cause is the program's
 * throwable, unwrapped from the reflection that called it.
 */
public final class ProgramFailure extends Exception {
    private static final long serialVersionUID = 1L;

    public ProgramFailure(Throwable programThrowable) {
        super(programThrowable);
    }
}
