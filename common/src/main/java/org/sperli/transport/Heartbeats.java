package org.sperli.transport;

import io.netty.util.concurrent.EventExecutor;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One timer for the heartbeats of all of a rank's connections (protocol 7.5: a connection sends HEARTBEAT when it has
 * sent nothing for the heartbeat interval, 1000 ms under the default silence limit). Every {@link #TICK_MS} it asks
 * each connection's {@link LivenessHandler} to send one if the connection has been idle that long, so a heartbeat
 * leaves up to a tick after the interval.
 *
 * <p>Why not a timer per connection (Netty's writer-idle events, as before): with 64 local ranks on 2 cores every
 * rank had 63 such timers, each firing at its own moment and each adding a listener to every write. Heartbeats are
 * dear there, and one timer per rank made the job quicker and cheaper; what remains is the heartbeats themselves.
 * Those are fewer where the launcher lengthened the silence limit for many ranks per core
 * ({@link org.sperli.protocol.Limits#heartbeatIntervalMs}). The figures are in docs/performance.md, section 5. The
 * ticks fall on the same quarter seconds of the wall clock in every rank of a host, so a rank's heartbeats go out
 * together.
 *
 * <p>Everything here runs on the rank's event loop: the connections register and leave there, and the tick is one of
 * its scheduled tasks.
 */
public final class Heartbeats {
    /** How often the idle connections are looked at. */
    static final long TICK_MS = 250;

    private final EventExecutor loop;
    private final InstantSource wallClock;
    private final List<LivenessHandler> connections = new ArrayList<>();
    private boolean ticking;

    /** The heartbeats of the connections on {@code loop}, with ticks aligned to the wall time of {@code wallClock}. */
    public Heartbeats(EventExecutor loop, InstantSource wallClock) {
        this.loop = loop;
        this.wallClock = wallClock;
    }

    /** A connection that sends heartbeats from now on; on the event loop. */
    void add(LivenessHandler connection) {
        connections.add(connection);
        if (!ticking) {
            scheduleNextTick();
        }
    }

    /** A connection that has ended; on the event loop. */
    void remove(LivenessHandler connection) {
        connections.remove(connection);
    }

    private void scheduleNextTick() {
        ticking = true;
        long delay = TICK_MS - Math.floorMod(wallClock.millis(), TICK_MS);
        loop.schedule(this::tick, delay, TimeUnit.MILLISECONDS);
    }

    private void tick() {
        ticking = false;
        if (connections.isEmpty()) {
            return;
        }
        // A copy: a heartbeat's write runs the pipeline, which may take its connection out of the list meanwhile.
        for (LivenessHandler connection : List.copyOf(connections)) {
            connection.beatIfIdle();
        }
        scheduleNextTick();
    }
}
