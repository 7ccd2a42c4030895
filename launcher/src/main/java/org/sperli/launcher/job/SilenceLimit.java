package org.sperli.launcher.job;

import java.util.Optional;
import org.sperli.protocol.Limits;

/**
 * The job's silence limit when the operator gave none: the protocol's default, longer when this host runs more than
 * {@value #RANKS_PER_CORE} local ranks per core. So many JVMs on so few cores can each wait seconds for the CPU, and a
 * heartbeat held back that long would fail a healthy job; a local rank that really dies is seen by the launcher at
 * once anyway (its process ends), so a longer limit costs little here. The default grows by 5 s per
 * {@value #RANKS_PER_CORE} ranks per core, up to {@value #MAX_AUTOMATIC_MS} ms.
 *
 * <p>It also grows by 5 s per {@value #RANKS_PER_DEFAULT_LIMIT} ranks of the job: an idle connection sends a heartbeat
 * every fifth of the limit, and every rank holds one connection to each other rank, so at the default limit a rank of
 * 4096 ranks sent and received 8190 heartbeats a second, more than a tenth of a core for doing nothing (see
 * docs/performance.md, section 5.1). The larger of the two wins.
 */
public final class SilenceLimit {
    /** Local ranks per core that the default limit is meant for. */
    static final int RANKS_PER_CORE = 4;
    /** The longest limit chosen without the operator. */
    static final long MAX_AUTOMATIC_MS = 60_000;
    /** Ranks of a job that the default limit is meant for. */
    static final int RANKS_PER_DEFAULT_LIMIT = 1024;

    private final long ms;
    private final String whyOrNull;

    private SilenceLimit(long ms, String whyOrNull) {
        this.ms = ms;
        this.whyOrNull = whyOrNull;
    }

    /**
     * The limit for {@code askedOrNull} (the operator's --silence-ms), a job of {@code size} ranks and
     * {@code localRanks} of them on this host's {@code cores}.
     */
    public static SilenceLimit of(Long askedOrNull, int size, int localRanks, int cores) {
        if (askedOrNull != null) {
            return new SilenceLimit(askedOrNull, null);
        }
        long perCore = (long) RANKS_PER_CORE * Math.max(1, cores);
        long coreFactor = (localRanks + perCore - 1) / perCore;
        long sizeFactor = (size + RANKS_PER_DEFAULT_LIMIT - 1) / RANKS_PER_DEFAULT_LIMIT;
        long ms = Math.min(MAX_AUTOMATIC_MS, Limits.DEFAULT_SILENCE_MS * Math.max(1, Math.max(coreFactor, sizeFactor)));
        if (ms == Limits.DEFAULT_SILENCE_MS) {
            return new SilenceLimit(ms, null);
        }
        String why = coreFactor >= sizeFactor
                ? localRanks + " local ranks on " + cores + " core" + (cores == 1 ? "" : "s")
                        + " can wait seconds for the CPU"
                : "each of " + size + " ranks has " + (size - 1) + " connections to keep alive";
        return new SilenceLimit(ms, "silence limit " + ms + " ms, not " + Limits.DEFAULT_SILENCE_MS + ": " + why
                + "; heartbeats after " + Limits.heartbeatIntervalMs(ms) / 1000.0 + " s idle (--silence-ms sets it)");
    }

    public long ms() {
        return ms;
    }

    /** What to tell the operator when the limit is not the one asked for or the default. */
    public Optional<String> note() {
        return Optional.ofNullable(whyOrNull);
    }
}
