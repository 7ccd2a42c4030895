package org.sperli.launcher.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.sperli.jobspec.JobDescription.HostEntry;
import org.sperli.jobspec.RefusedHostPolicy;
import org.sperli.launcher.exit.ExitCodes;
import org.sperli.launcher.exit.LauncherException;

/** mpirun's -n over slots: the first host up to its slots, then the next; never more ranks than slots. */
class SlotFillTest {
    private static List<String> hosts(List<HostSpec> specs) {
        return specs.stream().map(HostSpec::host).toList();
    }

    @Test
    void ranksFillTheFirstHostUpToItsSlotsBeforeTheNext() {
        SlotFill fill = SlotFill.first(5, HostSources.fromList("a/3,b/2,c"), "--hosts");
        assertEquals(List.of("a", "a", "a", "b", "b"), hosts(fill.ranks()));
        assertEquals(List.of("c"), hosts(fill.spares()));
    }

    @Test
    void fewerRanksThanSlotsLeaveTheLaterSlotsSpare() {
        SlotFill fill = SlotFill.first(2, HostSources.fromList("a/3,b/2"), "--hosts");
        assertEquals(List.of("a", "a"), hosts(fill.ranks()));
        assertEquals(List.of("a", "b", "b"), hosts(fill.spares()));
    }

    @Test
    void moreRanksThanSlotsIsRefusedWithTheCountsAndStatus2() {
        LauncherException e = assertThrows(LauncherException.class,
                () -> SlotFill.first(5, HostSources.fromList("a/2,b/2"), "--hosts"));
        assertEquals(ExitCodes.USAGE, e.exitCode());
        assertEquals("-n 5: --hosts gives 4 slots; list more (host/N in --hosts, slots=N in a hostfile) or lower -n",
                e.getMessage());
    }

    @Test
    void aRankCountOutside1To4096IsRefused() {
        assertEquals("-n 0 is not in 1..4096",
                assertThrows(LauncherException.class, () -> SlotFill.checkCount(0)).getMessage());
        assertThrows(LauncherException.class, () -> SlotFill.checkCount(4097));
        SlotFill.checkCount(4096);
    }

    @Test
    void withoutNEverySlotGetsARank() {
        SlotFill fill = SlotFill.all(HostSources.fromList("a/2,b"));
        assertEquals(List.of("a", "a", "b"), hosts(fill.ranks()));
        assertEquals(List.of(), fill.spares());
    }

    @Test
    void aRankOfAnUnreachableHostMovesToASpareHost() {
        HostPlan plan = HostPlan.build(SlotFill.first(2, HostSources.fromList("a/2,b/2"), "--hosts"), 23000);
        RefusedHostPolicy none = RefusedHostPolicy.fromEnvironment(Map.of(), (Path) null, w -> { });
        assertEquals(List.of(new HostEntry("a", 23000), new HostEntry("a", 23001)), plan.entries());
        assertEquals(Optional.of(new HostEntry("b", 23000)), plan.relocate(0, plan.entries(), Set.of("a"), none));
    }

    @Test
    void aRefusedSpareHostIsRefusedLikeAnyListedHost() {
        HostPlan plan = HostPlan.build(SlotFill.first(1, HostSources.fromList("a,x.bad.org/2"), "--hosts"), 23000);
        RefusedHostPolicy policy = RefusedHostPolicy.fromEnvironment(Map.of("SPERLI_REFUSED_HOSTS", "bad.org"),
                (Path) null, w -> { });
        assertEquals(List.of("H1615 host refused: host 'x.bad.org' is below 'bad.org' from SPERLI_REFUSED_HOSTS"
                + " (unused slot from --hosts entry 2)"), plan.refusals(policy));
    }

    @Test
    void aSpareSlotOutsideTheHostSyntaxIsRefusedWithItsOrigin() {
        LauncherException e = assertThrows(LauncherException.class,
                () -> HostPlan.build(SlotFill.first(1, HostSources.fromList("a,bad_host"), "--hosts"), 23000));
        assertEquals(ExitCodes.USAGE, e.exitCode());
        assertEquals(true, e.getMessage().startsWith("--hosts entry 2: "), e.getMessage());
    }
}
