package org.sperli.testkit;

import java.util.List;

/**
 * One start of the whole job: its number (1, then + 1 at every restart), how each rank ended, and why it failed.
 *
 * @param number       the incarnation, 1 at the first start
 * @param ranks        every rank's end, by rank
 * @param failureOrNull why the incarnation failed, as the launcher says it; null when every rank completed
 */
public record Incarnation(long number, List<RankResult> ranks, String failureOrNull) {
    public Incarnation {
        ranks = List.copyOf(ranks);
    }

    /** Whether every rank completed. */
    public boolean completed() {
        return failureOrNull == null;
    }

    /** Rank {@code rank}'s end. */
    public RankResult rank(int rank) {
        return ranks.get(rank);
    }
}
