package org.sperli.launcher.job;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * Whether this host can hold a job's local ranks at all, judged before anything starts. Each local rank is a JVM, and
 * a JVM that has loaded the TLS stack takes memory no job can talk it out of: a hello rank on this project's 2-core
 * machine was resident with 72 to 113 MiB (JDK 17 and 25, 8 ranks; part of it shared between the JVMs, such as the
 * JDK's own code). A run of more ranks than memory and swap can hold (a {@code -n 4096} that forgot its host file, for
 * one) would not fail at once: it would start JVM after JVM until the kernel kills some, the machine stalls for
 * everyone, and the job ends long after in a lost rank. So such a run is refused with one line and nothing started.
 *
 * <p>The bound counts {@value #RANK_MIB} MiB a rank, below what any rank was seen to need, against the memory the
 * kernel says is available now and the free swap ({@code MemAvailable} and {@code SwapFree} of {@link #MEMINFO}): it
 * refuses only what cannot run, never a run that would merely be slow. Where the file is missing or unreadable (not
 * Linux) nothing is judged.
 */
public final class LocalMemory {
    /** Where Linux tells the memory it has. */
    public static final Path MEMINFO = Path.of("/proc/meminfo");
    /** The least memory a local rank is counted with. */
    static final long RANK_MIB = 64;

    private LocalMemory() {
    }

    /** Why {@code localRanks} ranks cannot run on this host by {@code meminfo}; empty if they fit or it is unknown. */
    public static Optional<String> refusal(int localRanks, Path meminfo) {
        if (localRanks == 0) {
            // A job of SSH hosts only asks nothing of this one.
            return Optional.empty();
        }
        long availableKib;
        try {
            String text = Files.readString(meminfo, StandardCharsets.US_ASCII);
            long memory = field(text, "MemAvailable:");
            long swap = field(text, "SwapFree:");
            if (memory < 0) {
                return Optional.empty();
            }
            availableKib = memory + Math.max(0, swap);
        } catch (IOException | RuntimeException unreadable) {
            return Optional.empty();
        }
        long neededKib = localRanks * RANK_MIB * 1024;
        if (neededKib <= availableKib) {
            return Optional.empty();
        }
        return Optional.of(String.format(Locale.ROOT, "%d local ranks need at least %s of memory (%d MiB a rank JVM),"
                + " and this host has %s available with its free swap: nothing was started; run fewer ranks here, or"
                + " spread them over hosts with --hosts or --hostfile", localRanks, gib(neededKib), RANK_MIB,
                gib(availableKib)));
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

    private static String gib(long kib) {
        return String.format(Locale.ROOT, "%.1f GiB", kib / (1024.0 * 1024.0));
    }
}
