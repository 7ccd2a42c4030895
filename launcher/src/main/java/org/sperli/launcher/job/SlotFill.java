package org.sperli.launcher.job;

import java.util.List;
import org.sperli.launcher.exit.LauncherException;
import org.sperli.protocol.Limits;

/**
 * Which listed slots get ranks, as mpirun fills them for {@code -n N}: a host list is a sequence of slots in the order
 * written (a hostfile line {@code node1 slots=4} is four, a {@code --hosts} entry {@code node1/4} likewise, a plain
 * entry one), and ranks 0..N-1 take the first N, so the first host gets ranks up to its slots before the next host gets
 * any. Without {@code -n} every slot gets a rank. Slots left over are spares: a rank whose host cannot be reached may
 * move to a spare host ({@link HostPlan#relocate}).
 *
 * <p>More ranks than slots is refused (exit 2). mpirun's {@code --oversubscribe} is not copied: ranks beyond a host's
 * slots compete for its cores and slow the whole job, whose heartbeats then count stalls as lost peers; and the one
 * place oversubscription is everyday, a workstation, is served by {@code -n N} without a host option (N local ranks).
 *
 * @param ranks  one slot per rank, index = rank
 * @param spares the slots no rank took, in list order
 */
public record SlotFill(List<HostSpec> ranks, List<HostSpec> spares) {
    public SlotFill {
        ranks = List.copyOf(ranks);
        spares = List.copyOf(spares);
    }

    /** Every slot gets a rank (no {@code -n}). */
    public static SlotFill all(List<HostSpec> slots) {
        return new SlotFill(slots, List.of());
    }

    /**
     * Ranks 0..n-1 on the first {@code n} of {@code slots}; {@code source} names the host option for the message when
     * there are fewer slots ({@code --hosts}, {@code hostfile hosts.txt}).
     */
    public static SlotFill first(int n, List<HostSpec> slots, String source) {
        checkCount(n);
        if (n > slots.size()) {
            throw LauncherException.usage("-n " + n + ": " + source + " gives " + slots.size() + " slot"
                    + (slots.size() == 1 ? "" : "s") + "; list more (host/N in --hosts, slots=N in a hostfile) or"
                    + " lower -n");
        }
        return new SlotFill(slots.subList(0, n), slots.subList(n, slots.size()));
    }

    /** Refuses a rank count outside 1..{@link Limits#MAX_SIZE} (exit 2). */
    public static void checkCount(int n) {
        if (n < 1 || n > Limits.MAX_SIZE) {
            throw LauncherException.usage("-n " + n + " is not in 1.." + Limits.MAX_SIZE);
        }
    }
}
