package org.sperli.runtime;

import org.sperli.protocol.Limits;
import org.sperli.trace.RankTrace;
import org.sperli.transport.Connections;
import org.sperli.transport.Progress;
import org.sperli.transport.WaitSpin;

/**
 * The parts of one rank's runtime, made and wired for its configuration; {@link RankRuntime} is what the program sees
 * of them. Whoever makes a rank's parts holds them: the runtime itself offers no view inside, and the tests of this
 * package, which look at a running rank's queues, frames and checkpoint steps, make the parts they connect.
 *
 * @param connectionsOrNull the rank's sockets and event loop; null in a job of one rank
 */
record RankParts(RankConfig config, JobFate fate, Links links, Connections connectionsOrNull, Mailbox mailbox,
                 FrameLink frames, PointToPoint pointToPoint, CollectiveEngine collectives,
                 CheckpointDriver checkpoints) {

    /** The parts of the rank {@code config} describes, none of them started yet; not traced. */
    static RankParts of(RankConfig config) {
        return of(config, null);
    }

    /** As {@link #of(RankConfig)}, traced into {@code traceOrNull} (null: not traced). */
    static RankParts of(RankConfig config, RankTrace traceOrNull) {
        JobFate fate = new JobFate(config.clock());
        Links links = new Links(config.size(), config.rank(), config.clock());
        Connections connections = config.size() == 1 ? null : new Connections(
                WaitSpin.nanosFor(config.ranksOnOwnMachine(), Runtime.getRuntime().availableProcessors()),
                config.clock());
        Progress progress = connections == null ? Progress.NONE : connections.progress();
        Mailbox mailbox = new Mailbox(config.size(), config.rank(), fate, progress, config.clock());
        fate.whenEnded(mailbox::wakeAll);
        fate.whenEnded(links::wakeAll);
        FrameLink frames = new FrameLink(config, links, mailbox, fate, progress, traceOrNull);
        OpenRequests open = new OpenRequests();
        return new RankParts(config, fate, links, connections, mailbox, frames, new PointToPoint(frames, mailbox, open),
                new CollectiveEngine(frames, () -> config.collectives() == CollectiveShape.MESH
                        && links.everyPeerAnnounced(Limits.FEATURE_MESH_COLLECTIVES)),
                new CheckpointDriver(frames, open));
    }
}
