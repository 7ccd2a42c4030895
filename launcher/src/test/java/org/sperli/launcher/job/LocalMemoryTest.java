package org.sperli.launcher.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Local ranks are refused only when this host's available memory and free swap cannot hold them at all. */
class LocalMemoryTest {
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
        assertEquals(Optional.empty(), LocalMemory.refusal(64, meminfo(64 * 64 * 1024, 0)));
    }

    @Test
    void oneRankMoreThanMemoryAndSwapCanHoldIsRefusedWithBothFigures() throws IOException {
        Optional<String> refusal = LocalMemory.refusal(65, meminfo(32 * 64 * 1024, 32 * 64 * 1024));
        assertTrue(refusal.isPresent());
        assertTrue(refusal.get().startsWith("65 local ranks need at least 4.1 GiB of memory (64 MiB a rank JVM),"
                + " and this host has 4.0 GiB available with its free swap: nothing was started"), refusal.get());
    }

    @Test
    void freeSwapCountsTowardsWhatTheHostCanHold() throws IOException {
        assertEquals(Optional.empty(), LocalMemory.refusal(64, meminfo(32 * 64 * 1024, 32 * 64 * 1024)));
    }

    @Test
    void noLocalRanksAreNeverRefused() throws IOException {
        assertEquals(Optional.empty(), LocalMemory.refusal(0, meminfo(0, 0)));
    }

    @Test
    void aHostWithoutMeminfoOrWithoutItsFiguresIsNotJudged() throws IOException {
        assertEquals(Optional.empty(), LocalMemory.refusal(4096, dir.resolve("missing")));
        Path other = Files.writeString(dir.resolve("other"), "MemTotal: 1 kB\n");
        assertEquals(Optional.empty(), LocalMemory.refusal(4096, other));
        Path garbled = Files.writeString(dir.resolve("garbled"), "MemAvailable: lots\n");
        assertEquals(Optional.empty(), LocalMemory.refusal(4096, garbled));
    }
}
