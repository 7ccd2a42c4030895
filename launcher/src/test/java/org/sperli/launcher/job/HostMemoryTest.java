package org.sperli.launcher.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Ranks are refused only when their host's available memory and free swap cannot hold them at all. */
class HostMemoryTest {
    @TempDir
    Path dir;

    /** A meminfo file of the kernel's layout with the two figures the rule reads, in kB. */
    private Path meminfo(long availableKib, long swapFreeKib) throws IOException {
        return Files.writeString(dir.resolve("meminfo"), "MemTotal:       24596848 kB\n"
                + "MemFree:         1000000 kB\n"
                + "MemAvailable:   " + availableKib + " kB\n"
                + "SwapTotal:      " + swapFreeKib + " kB\n"
                + "SwapFree:       " + swapFreeKib + " kB\n");
    }

    @Test
    void ranksThatFitInAvailableMemoryAreNotRefused() throws IOException {
        assertEquals(Optional.empty(), HostMemory.localRefusal(64, meminfo(64 * 64 * 1024, 0)));
    }

    @Test
    void oneRankMoreThanMemoryAndSwapCanHoldIsRefusedWithBothFigures() throws IOException {
        Optional<String> refusal = HostMemory.localRefusal(65, meminfo(32 * 64 * 1024, 32 * 64 * 1024));
        assertTrue(refusal.isPresent());
        assertTrue(refusal.get().startsWith("65 local ranks need at least 4.1 GiB of memory (64 MiB a rank JVM),"
                + " and this host has 4.0 GiB available with its free swap: nothing was started"), refusal.get());
    }

    @Test
    void freeSwapCountsTowardsWhatTheHostCanHold() throws IOException {
        assertEquals(Optional.empty(), HostMemory.localRefusal(64, meminfo(32 * 64 * 1024, 32 * 64 * 1024)));
    }

    @Test
    void noLocalRanksAreNeverRefused() throws IOException {
        assertEquals(Optional.empty(), HostMemory.localRefusal(0, meminfo(0, 0)));
    }

    @Test
    void aHostWithoutMeminfoOrWithoutItsFiguresIsNotJudged() throws IOException {
        assertEquals(Optional.empty(), HostMemory.localRefusal(4096, dir.resolve("missing")));
        Path other = Files.writeString(dir.resolve("other"), "MemTotal: 1 kB\n");
        assertEquals(Optional.empty(), HostMemory.localRefusal(4096, other));
        Path garbled = Files.writeString(dir.resolve("garbled"), "MemAvailable: lots\n");
        assertEquals(Optional.empty(), HostMemory.localRefusal(4096, garbled));
    }

    @Test
    void aRemoteHostIsJudgedByWhatItsProbePrintedAndNamedInTheLine() {
        OptionalLong fourGib = HostMemory.availableKib("MemAvailable:   3145728 kB\nSwapFree:        1048576 kB\n");
        assertEquals(OptionalLong.of(4 * 1024 * 1024), fourGib);
        assertEquals(Optional.empty(), HostMemory.remoteRefusal("node7", 64, fourGib));
        Optional<String> refusal = HostMemory.remoteRefusal("node7", 65, fourGib);
        assertEquals(Optional.of("host node7 cannot hold its 65 ranks: they need at least 4.1 GiB of memory (64 MiB a"
                + " rank JVM), and it has 4.0 GiB available with its free swap: nothing was started; give it fewer"
                + " slots, or list more hosts"), refusal);
    }

    @Test
    void aRemoteHostThatPrintedNoFiguresIsNotJudged() {
        assertEquals(OptionalLong.empty(), HostMemory.availableKib(""));
        assertEquals(OptionalLong.empty(), HostMemory.availableKib("SwapFree: 100 kB\n"));
        assertEquals(OptionalLong.empty(), HostMemory.availableKib("MemAvailable: lots\n"));
        assertEquals(OptionalLong.of(100), HostMemory.availableKib("MemAvailable: 100 kB\n"));
        assertEquals(OptionalLong.of(Long.MAX_VALUE), HostMemory.availableKib("MemAvailable: " + Long.MAX_VALUE
                + " kB\nSwapFree: " + Long.MAX_VALUE + " kB\n"));
        assertEquals(Optional.empty(), HostMemory.remoteRefusal("node7", 4096, OptionalLong.empty()));
    }
}
