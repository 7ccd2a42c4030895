package org.sperli.launcher.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.sperli.jobspec.JobDescription.HostEntry;
import org.sperli.jobspec.RefusedHostPolicy;
import org.sperli.launcher.exit.LauncherException;

class HostPlanTest {
    private static final RefusedHostPolicy NO_ENV = RefusedHostPolicy.fromEnvironment(Map.of(), (Path) null, w -> { });

    private static HostPlan plan(String hosts, int portBase) {
        return HostPlan.build(HostSources.fromList(hosts), portBase);
    }

    @Test
    void ranksOnOneHostGetConsecutivePortsFromTheBase() {
        assertEquals(List.of(new HostEntry("a", 23000), new HostEntry("b", 23000), new HostEntry("a", 23001)),
                plan("a,b,a", 23000).entries());
    }

    @Test
    void theDefaultPortBaseLeavesAThousandRanksBelowLinuxsDefaultEphemeralRange() {
        EphemeralRange linux = EphemeralPorts.parse("32768\t60999\n").orElseThrow();
        assertFalse(linux.overlaps(HostPlan.DEFAULT_PORT_BASE, 1000));
    }

    @Test
    void theLocalPortsAreThoseOfTheRanksThatRunAsLocalProcesses() {
        HostPlan plan = plan("localhost,node1,127.0.0.1:23007,localhost", 23000);
        assertEquals(List.of(23000, 23007, 23001), plan.localPorts(false));
        assertEquals(List.of(), plan("node1,node2", 23000).localPorts(false));
        assertEquals(List.of(), plan.localPorts(true));
    }

    @Test
    void explicitPortsAreKeptAndSkipped() {
        assertEquals(List.of(new HostEntry("a", 23000), new HostEntry("a", 23002), new HostEntry("a", 23001),
                new HostEntry("a", 23003)), plan("a:23000,a,a:23001,a", 23000).entries());
    }

    @Test
    void localhostAnd127ShareOnePortSpace() {
        assertEquals(List.of(new HostEntry("localhost", 5000), new HostEntry("127.0.0.1", 5001)),
                plan("localhost,127.0.0.1", 5000).entries());
    }

    @Test
    void hostsAreNormalized() {
        assertEquals("node1.example.org", plan("Node1.EXAMPLE.org.", 23000).entries().get(0).host());
    }

    @Test
    void refusesIpv6AndBadNamesWithTheirOrigin() {
        LauncherException e = assertThrows(LauncherException.class, () -> plan("a,::1", 23000));
        assertTrue(e.getMessage().startsWith("--hosts entry 2: "), e.getMessage());
        assertTrue(e.getMessage().contains("IPv6"), e.getMessage());
        assertThrows(LauncherException.class, () -> plan("-a", 23000));
        assertThrows(LauncherException.class, () -> plan("a..b", 23000));
    }

    @Test
    void refusesPortsPast65535() {
        assertThrows(LauncherException.class, () -> plan("a,a", 65535));
        assertEquals(65535, plan("a", 65535).entries().get(0).port());
    }

    @Test
    void refusalsNameEveryRankOfARefusedHost() {
        HostPlan plan = plan("x.bad.org,ok,x.bad.org", 23000);
        RefusedHostPolicy policy = RefusedHostPolicy.fromEnvironment(Map.of("SPERLI_REFUSED_HOSTS", "bad.org"),
                (Path) null, w -> { });
        assertEquals(List.of("H1615 host refused: host 'x.bad.org' is below 'bad.org' from SPERLI_REFUSED_HOSTS"
                + " (rank 0 from --hosts entry 1, rank 2 from --hosts entry 3)"), plan.refusals(policy));
        assertEquals(List.of(), plan.refusals(NO_ENV));
    }

    @Test
    void relocationPicksTheLeastLoadedReachableAllowedHostAndAFreePort() {
        HostPlan plan = plan("a,b,c,c,d", 23000);
        List<HostEntry> current = plan.entries();
        RefusedHostPolicy refusesD = RefusedHostPolicy.fromEnvironment(Map.of("SPERLI_REFUSED_HOSTS", "d"),
                (Path) null, w -> { });
        // a is unreachable; d is refused (never a target); b has one rank, c two: b, on its next port.
        assertEquals(Optional.of(new HostEntry("b", 23001)),
                plan.relocate(0, current, Set.of("a"), refusesD));
        assertEquals(Optional.empty(), plan.relocate(0, current, Set.of("a", "b", "c"), refusesD));
    }

    @Test
    void localNamesRunLocallyUnlessSshIsForced() {
        assertTrue(HostPlan.runsLocally("localhost", false));
        assertTrue(HostPlan.runsLocally("127.0.0.1", false));
        assertTrue(!HostPlan.runsLocally("localhost", true));
        assertTrue(!HostPlan.runsLocally("node1", false));
    }
}
