package org.sperli.launcher.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sperli.launcher.exit.LauncherException;
import org.sperli.launcher.job.HostSpec;

/** The allocation's nodes, addresses and slots, and how -n fills them; each bad input is one line. */
class SlurmAllocationTest {
    private static final Map<String, String> ENV = Map.of("SLURM_JOB_ID", "12", "SLURM_JOB_NODELIST", "n[1-3]",
            "SLURM_TASKS_PER_NODE", "2,1(x2)");

    private static List<String> hosts(List<HostSpec> specs) {
        return specs.stream().map(s -> s.host() + ":" + s.port()).toList();
    }

    @Test
    void eachSlotGetsItsNodesAddressAndAPortOfItsOwn() {
        SlurmAllocation a = SlurmAllocation.of(ENV, Map.of("n2", "10.0.0.2"));
        assertEquals(List.of("n1:100", "n1:101", "10.0.0.2:102", "n3:103"), hosts(a.specs(null, 100)));
        assertEquals(List.of("n1:100", "n1:101", "10.0.0.2:102"), hosts(a.specs(3, 100)));
    }

    @Test
    void moreRanksThanSlotsAreSpreadEvenlyOverTheNodes() {
        SlurmAllocation a = SlurmAllocation.of(ENV, Map.of());
        assertEquals(List.of("n1:1", "n1:2", "n1:3", "n2:4", "n2:5", "n3:6", "n3:7"), hosts(a.specs(7, 1)));
    }

    @Test
    void twoNodesOfOneAddressAreRefused() {
        LauncherException e = assertThrows(LauncherException.class,
                () -> SlurmAllocation.of(ENV, Map.of("n1", "10.0.0.1", "n3", "10.0.0.1")));
        assertTrue(e.getMessage().contains("nodes n1 and n3 have one address 10.0.0.1"), e.getMessage());
    }

    @Test
    void aJobIdThatIsNoNumberIsRefused() {
        LauncherException e = assertThrows(LauncherException.class,
                () -> SlurmAllocation.of(Map.of("SLURM_JOB_ID", "12;rm", "SLURM_JOB_NODELIST", "n1"), Map.of()));
        assertTrue(e.getMessage().contains("is not a job number"), e.getMessage());
    }

    @Test
    void tasksPerNodeOfAnotherNodeCountIsRefused() {
        LauncherException e = assertThrows(LauncherException.class, () -> SlurmAllocation.of(
                Map.of("SLURM_JOB_ID", "1", "SLURM_JOB_NODELIST", "n[1-3]", "SLURM_TASKS_PER_NODE", "2"), Map.of()));
        assertTrue(e.getMessage().contains("gives 1 nodes"), e.getMessage());
    }

    @Test
    void aRankCountOutOfRangeIsRefusedBeforeAnythingIsMade() {
        SlurmAllocation a = SlurmAllocation.of(ENV, Map.of());
        assertThrows(LauncherException.class, () -> a.specs(0, 100));
        assertThrows(LauncherException.class, () -> a.specs(Integer.MAX_VALUE, 100));
    }

    @Test
    void listedHostsWithinTheAllocationGetTheirNodesAddresses() {
        SlurmAllocation a = SlurmAllocation.of(ENV, Map.of("n2", "10.0.0.2"));
        List<HostSpec> listed = List.of(new HostSpec("n2", HostSpec.NO_PORT, "--hosts entry 1"),
                new HostSpec("n2", HostSpec.NO_PORT, "--hosts entry 1"), new HostSpec("n3", 700, "--hosts entry 2"));
        assertEquals(List.of("10.0.0.2:100", "10.0.0.2:101", "n3:700"), hosts(a.within(listed, 100)));
        LauncherException e = assertThrows(LauncherException.class, () -> a.within(
                List.of(new HostSpec("n9", HostSpec.NO_PORT, "--hosts entry 1")), 100));
        assertTrue(e.getMessage().contains("'n9' is no node of Slurm job 12"), e.getMessage());
    }
}
