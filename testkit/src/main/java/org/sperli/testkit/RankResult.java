package org.sperli.testkit;

import java.util.List;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.jobspec.RankExit;

/**
 * How one rank of one incarnation ended: what it printed, whether its program returned or what it threw, the H code
 * of its end, and the exit status and last line a rank process would have given ({@link RankExit}: 0 completed, 3
 * the program failed, 5 a peer was lost, ...; 137 for a rank the kit killed, as for a process killed by SIGKILL).
 */
public final class RankResult {
    /** The exit status of a rank the kit killed: 128 + 9, as a shell reports a process killed by SIGKILL. */
    public static final int KILLED_STATUS = 137;

    private final int rank;
    private final long incarnation;
    private final List<String> stdout;
    private final List<String> stderr;
    private final List<String> log;
    private final boolean ran;
    private final Throwable thrown;
    private final SperliException failure;
    private final int exitStatus;
    private final String lastLine;
    private final Ending ending;
    private final long resumedEpoch;

    /** How the kit saw the rank end. */
    public enum Ending {
        /** Its program returned and the job did not fail: status 0. */
        COMPLETED,
        /** Its program threw (or, from a jar, called System.exit). */
        THREW,
        /** The job failed around it: while it connected or resumed, or after its program returned. */
        JOB_FAILED,
        /** The kit killed it on purpose (a fault of the run). */
        KILLED,
        /** The kit stopped it: it went on after the job had failed, or past the run's time limit. */
        STOPPED
    }

    RankResult(int rank, long incarnation, List<String> stdout, List<String> stderr, List<String> log, boolean ran,
               Throwable thrown, SperliException failure, int exitStatus, String lastLine, Ending ending,
               long resumedEpoch) {
        this.rank = rank;
        this.incarnation = incarnation;
        this.stdout = List.copyOf(stdout);
        this.stderr = List.copyOf(stderr);
        this.log = List.copyOf(log);
        this.ran = ran;
        this.thrown = thrown;
        this.failure = failure;
        this.exitStatus = exitStatus;
        this.lastLine = lastLine;
        this.ending = ending;
        this.resumedEpoch = resumedEpoch;
    }

    public int rank() {
        return rank;
    }

    public long incarnation() {
        return incarnation;
    }

    /** The lines the rank printed on System.out (its own threads' lines included). */
    public List<String> stdout() {
        return stdout;
    }

    /** The lines the rank printed on System.err. */
    public List<String> stderr() {
        return stderr;
    }

    /** The runtime's notes for the operator ({@code resuming epoch 3 ...}, failures), as a rank prints on stderr. */
    public List<String> log() {
        return log;
    }

    public Ending ending() {
        return ending;
    }

    /** Whether the rank completed: its program returned and the job did not fail (status 0). */
    public boolean completed() {
        return ending == Ending.COMPLETED;
    }

    /** Whether its program started (the rank connected and any resume was done). */
    public boolean ran() {
        return ran;
    }

    /** Whether its program returned normally, whatever the job did afterwards. */
    public boolean returned() {
        return ran && thrown == null && ending != Ending.KILLED && ending != Ending.STOPPED;
    }

    /** What the program threw, or null (a jar job's System.exit is an {@link ExitTrap.ExitCalled}). */
    public Throwable thrown() {
        return thrown;
    }

    /** The job's failure as this rank saw it, or null when the job did not fail here. */
    public SperliException failure() {
        return failure;
    }

    /**
     * The H code of the rank's end: that of the SperliException the program threw, else of the job's failure; null
     * when neither was a SperliException.
     */
    public ErrorCode code() {
        if (thrown instanceof SperliException e) {
            return e.code();
        }
        return failure != null ? failure.code() : null;
    }

    /** The exit status a rank process would have ended with. */
    public int exitStatus() {
        return exitStatus;
    }

    /** The rank's last line on stderr as a rank process says it (starting with the H code when there is one). */
    public String lastLine() {
        return lastLine;
    }

    /** The epoch this rank resumed from at its start (0: a fresh start). */
    public long resumedEpoch() {
        return resumedEpoch;
    }

    @Override
    public String toString() {
        String meaning = exitStatus == KILLED_STATUS ? "killed by the kit" : RankExit.meaning(exitStatus);
        return "rank " + rank + " (incarnation " + incarnation + "): " + ending + ", status " + exitStatus + " ("
                + meaning + ")" + (lastLine == null ? "" : ": " + lastLine);
    }
}
