package org.sperli.launcher.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.sperli.launcher.exit.ExitCodes;
import org.sperli.launcher.exit.LauncherException;

class SlurmHostlistTest {
    @Test
    void expandsRangesAndSinglesKeepingZeroPadding() {
        assertEquals(List.of("node01", "node02", "node03", "node04", "node07", "gpu1", "gpu2"),
                SlurmHostlist.expand("node[01-04,07],gpu[1-2]"));
    }

    @Test
    void plainNamesPassThrough() {
        assertEquals(List.of("a", "b.example.org"), SlurmHostlist.expand("a,b.example.org"));
    }

    @Test
    void paddingFollowsTheLowerBound() {
        assertEquals(List.of("n8", "n9", "n10"), SlurmHostlist.expand("n[8-10]"));
        assertEquals(List.of("n008", "n009", "n010"), SlurmHostlist.expand("n[008-010]"));
    }

    @Test
    void severalBracketsMultiply() {
        assertEquals(List.of("r1n1", "r1n2", "r2n1", "r2n2"), SlurmHostlist.expand("r[1-2]n[1-2]"));
    }

    @Test
    void bracketWithSuffix() {
        assertEquals(List.of("node1-ib", "node2-ib"), SlurmHostlist.expand("node[1-2]-ib"));
    }

    @Test
    void refusesMalformedExpressionsWithStatus2() {
        for (String bad : List.of("node[", "node]", "node[]", "node[a]", "node[3-1]", "node[1-2", "a,,b",
                "node[[1]]", "node[1--2]")) {
            LauncherException e = assertThrows(LauncherException.class, () -> SlurmHostlist.expand(bad), bad);
            assertEquals(ExitCodes.USAGE, e.exitCode());
            assertTrue(e.getMessage().startsWith("hostlist '"), e.getMessage());
        }
    }

    @Test
    void refusesMoreThan4096NamesBeforeBuildingThem() {
        LauncherException e = assertThrows(LauncherException.class,
                () -> SlurmHostlist.expand("node[0-999999999]"));
        assertTrue(e.getMessage().contains("more than 4096 names"), e.getMessage());
        assertEquals(4096, SlurmHostlist.expand("n[1-4096]").size());
        assertThrows(LauncherException.class, () -> SlurmHostlist.expand("n[1-4096],x"));
    }

    @Test
    void tasksPerNodeRepeats() {
        assertEquals(List.of(2, 2, 2, 1), SlurmHostlist.tasksPerNode("2(x3),1"));
        assertThrows(LauncherException.class, () -> SlurmHostlist.tasksPerNode("0"));
        assertThrows(LauncherException.class, () -> SlurmHostlist.tasksPerNode("2(3)"));
        assertThrows(LauncherException.class, () -> SlurmHostlist.tasksPerNode("1(x5000)"));
    }
}
