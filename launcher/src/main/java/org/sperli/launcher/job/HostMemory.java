package org.sperli.launcher.job;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Whether a host can hold the ranks a job gives it at all, judged before anything starts: this host for local ranks, an
 * SSH host from what its probe printed of its {@code /proc/meminfo}. Each rank of the rank daemon is a JVM, and a JVM
 * that has loaded the TLS stack takes memory no job can talk it out of, about a hundred MiB for a hello rank (part of
 * it shared between the JVMs, such as the JDK's own code; see docs/performance.md, section 5). A run of more ranks than
 * memory and swap can hold (a {@code -n 4096} that forgot its host file, a host file that gives a small host too many
 * slots) would not fail at once: it would start JVM after JVM until the kernel kills some, the host stalls for
 * everyone, and the job ends long after in a lost rank. So such a run is refused with one line and nothing started.
 *
 * <p>The bound counts {@value #RANK_MIB} MiB a rank, below what any rank was seen to need, against the memory the
 * kernel says is available now and the free swap ({@code MemAvailable} and {@code SwapFree}): it refuses only what
 * cannot run, never a run that would merely be slow. Where the figures are missing (not Linux) nothing is judged, and
 * nothing is for a rank command given with {@code --rankd}, which need not be a JVM at all.
 */
public final class HostMemory {
    /** Where Linux tells the memory it has. */
    public static final Path MEMINFO = Path.of("/proc/meminfo");
    /** The line of {@link #MEMINFO} with the memory available now, in kB. */
    public static final String MEM_AVAILABLE = "MemAvailable:";
    /** The line of {@link #MEMINFO} with the free swap, in kB. */
    public static final String SWAP_FREE = "SwapFree:";
    /** The least memory a rank is counted with. */
    static final long RANK_MIB = 64;

    private HostMemory() {
    }

    /** Why {@code localRanks} ranks cannot run on this host by {@code meminfo}; empty if they fit or it is unknown. */
    public static Optional<String> localRefusal(int localRanks, Path meminfo) {
        if (localRanks == 0) {
            // A job of SSH hosts only asks nothing of this one.
            return Optional.empty();
        }
        OptionalLong availableKib;
        try {
            availableKib = availableKib(Files.readString(meminfo, StandardCharsets.US_ASCII));
        } catch (IOException | RuntimeException unreadable) {
            return Optional.empty();
        }
        return shortfall(localRanks, availableKib).map(need -> String.format(Locale.ROOT, "%d local ranks need at"
                + " least %s, and this host has %s available with its free swap: nothing was started; run fewer"
                + " ranks here, or spread them over hosts with --hosts or --hostfile", localRanks, need,
                gib(availableKib.getAsLong())));
    }

    /**
     * Why {@code host} cannot hold its {@code ranks} ranks with {@code availableKib} (what its probe found, empty
     * when unknown); empty if they fit.
     */
    public static Optional<String> remoteRefusal(String host, int ranks, OptionalLong availableKib) {
        return shortfall(ranks, availableKib).map(need -> String.format(Locale.ROOT, "host %s cannot hold its %d"
                + " ranks: they need at least %s, and it has %s available with its free swap: nothing was started;"
                + " give it fewer slots, or list more hosts", host, ranks, need, gib(availableKib.getAsLong())));
    }

    /**
     * {@code MemAvailable} plus {@code SwapFree} in kB from text in the layout of {@code /proc/meminfo} (only those two
     * lines are read); empty without a readable {@code MemAvailable}.
     */
    public static OptionalLong availableKib(String meminfo) {
        try {
            long memory = field(meminfo, MEM_AVAILABLE);
            long swap = field(meminfo, SWAP_FREE);
            if (memory < 0) {
                return OptionalLong.empty();
            }
            // Saturated: a host that prints absurd figures is taken to have plenty, never refused by an overflow.
            long total = memory + Math.max(0, swap);
            return OptionalLong.of(total < memory ? Long.MAX_VALUE : total);
        } catch (RuntimeException garbled) {
            return OptionalLong.empty();
        }
    }

    /** What {@code ranks} ranks need, in words, when {@code availableKib} cannot hold them; empty otherwise. */
    private static Optional<String> shortfall(int ranks, OptionalLong availableKib) {
        long neededKib = ranks * RANK_MIB * 1024;
        if (availableKib.isEmpty() || neededKib <= availableKib.getAsLong()) {
            return Optional.empty();
        }
        return Optional.of(gib(neededKib) + " of memory (" + RANK_MIB + " MiB a rank JVM)");
    }

    /** The kB figure of the line starting with {@code name}, or -1 when there is none. */
    private static long field(String meminfo, String name) {
        for (String line : meminfo.split("\n")) {
            if (line.startsWith(name)) {
                String[] words = line.substring(name.length()).strip().split("\\s+");
                return Long.parseLong(words[0]);
            }
        }
        return -1;
    }

    /** In GiB with one decimal, and below 1 GiB in whole MiB, where one decimal of GiB would hide the difference. */
    private static String gib(long kib) {
        if (kib < 1024 * 1024) {
            return String.format(Locale.ROOT, "%d MiB", kib / 1024);
        }
        return String.format(Locale.ROOT, "%.1f GiB", kib / (1024.0 * 1024.0));
    }
}
