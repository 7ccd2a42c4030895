package org.sperli.launcher.job;

import java.io.IOException;
import java.time.InstantSource;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.sperli.identity.JobKit;
import org.sperli.jobspec.DescriptionLine;
import org.sperli.jobspec.JobDescription.HostEntry;

/**
 * Starts every rank of an incarnation, each on its host's starter, and tells the progress line, the timeline and the
 * history of each start.
 */
final class IncarnationStart {
    private final boolean forceSsh;
    private final RankStarter local;
    private final RankStarter remote;
    private final LaunchProgress progress;
    private final LaunchTimeline timeline;
    private final InstantSource clock;
    private final IncarnationHistory history;

    /** @param remote starter for hosts that are not local; may be null when every host runs locally */
    IncarnationStart(boolean forceSsh, RankStarter local, RankStarter remote, LaunchProgress progress,
                     LaunchTimeline timeline, InstantSource clock, IncarnationHistory history) {
        this.forceSsh = forceSsh;
        this.local = local;
        this.remote = remote;
        this.progress = progress;
        this.timeline = timeline;
        this.clock = clock;
        this.history = history;
    }

    /**
     * Starts every rank of {@code kit}, adding each to {@code ranks}; returns a failure when one could not be
     * started or a stop was requested, else null. Every description is made first, on all cores while the machine is
     * still quiet ({@link JobKit#lines}), and then the ranks are started in one go: made one by one between starts,
     * the launcher competed with the ranks already booting, and with many ranks the last one started long after the
     * first (see docs/performance.md, section 3.6).
     */
    IncarnationFailure startAll(long incarnation, JobKit kit, List<RankProcess> ranks, BooleanSupplier stopRequested) {
        DescriptionLine[] lines = kit.lines(incarnation, clock.instant());
        try {
            for (int rank = 0; rank < lines.length; rank++) {
                if (stopRequested.getAsBoolean()) {
                    return IncarnationFailure.stoppedByOperator();
                }
                IncarnationFailure failure = start(rank, incarnation, kit.hosts().get(rank), lines[rank], ranks);
                if (failure != null) {
                    return failure;
                }
                progress.started();
            }
            return null;
        } finally {
            for (DescriptionLine line : lines) {
                line.wipe();
            }
        }
    }

    private IncarnationFailure start(int rank, long incarnation, HostEntry entry, DescriptionLine line,
                                     List<RankProcess> ranks) {
        boolean isLocal = HostPlan.runsLocally(entry.host(), forceSsh);
        try {
            RankProcess p = (isLocal ? local : remote).start(rank, incarnation, entry, line);
            timeline.processStarted(rank);
            history.started(p);
            p.exited().whenComplete((status, error) -> timeline.exited(p.rank()));
            ranks.add(p);
            return null;
        } catch (IOException e) {
            String what = "rank " + rank + " could not be started " + (isLocal ? "locally" : "on " + entry.host())
                    + ": " + e.getMessage();
            // A local command that cannot run will not run next time either; a remote host may come back.
            return isLocal ? IncarnationFailure.permanentFailure(what) : IncarnationFailure.restartable(what);
        }
    }
}
