package org.sperli.launcher.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The srun step's command line, and which of srun's lines are the operator's stop. */
class SrunStepTest {
    @Test
    void oneAgentPerNodeWithTheFlagsOfTheStep() {
        List<String> argv = SrunStep.argv(List.of("n1", "n2"), "sperli-agents-x", 4000, "ab".repeat(32),
                "0f".repeat(32), List.of("n1=10.0.0.1", "n2=10.0.0.2"));
        assertEquals(List.of("srun", "--nodes=2", "--ntasks=2", "--ntasks-per-node=1", "--nodelist=n1,n2",
                "--kill-on-bad-exit=0", "--input=none", "--mpi=none", "--cpu-bind=none", "--job-name=sperli-agents-x"),
                argv.subList(0, 10));
        assertEquals(List.of("--node", "n1=10.0.0.1", "--node", "n2=10.0.0.2", "--call-home-port", "4000",
                "--launcher-sha256", "ab".repeat(32), "--nonce", "0f".repeat(32)), argv.subList(argv.size() - 10,
                argv.size()));
    }

    @Test
    void aCancelledStepOrJobIsTheOperatorsStopButANodeFailureIsNot() {
        assertTrue(SrunStep.isCancel("slurmstepd-n1: error: *** STEP 1.0 ON n1 CANCELLED AT 2026-12-07T04:22:25 ***"));
        assertTrue(SrunStep.isCancel("slurmstepd: error: *** JOB 17 ON n2 CANCELLED AT 2026-12-07T04:22:25 DUE TO"
                + " TIME LIMIT ***"));
        assertFalse(SrunStep.isCancel("slurmstepd: error: *** STEP 17.0 ON n2 CANCELLED AT 2026-12-07T04:22:25 DUE"
                + " TO NODE FAILURE, SEE SLURMCTLD LOG FOR DETAILS ***"));
        assertFalse(SrunStep.isCancel("srun: error: n2: task 1: Exited with exit code 143"));
    }
}
