package org.sperli.testkit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.sperli.Communicator;
import org.sperli.runtime.RankRuntime;

/**
 * The faults a run injects on purpose. A kill fires once in the whole run, in the first incarnation that reaches it,
 * so that the restarted job can pass the same place and show that it resumes right; a delay holds in every
 * incarnation. Only the ranks a fault names get the {@link FaultyCommunicator}; the others run on the runtime itself.
 */
final class Faults {
    private final List<Kill> kills = new ArrayList<>();
    private final List<Delay> delays = new ArrayList<>();

    /** Kill rank {@code rank} as it enters its {@code call}-th communication call (1 = the first). */
    void killAtCall(int rank, long call) {
        if (call < 1) {
            throw new IllegalArgumentException("call " + call + ", expected 1 or more");
        }
        kills.add(new Kill(rank, call, 0));
    }

    /** Kill rank {@code rank} as it enters the checkpoint of epoch {@code epoch}. */
    void killAtCheckpoint(int rank, long epoch) {
        if (epoch < 1) {
            throw new IllegalArgumentException("epoch " + epoch + ", expected 1 or more");
        }
        kills.add(new Kill(rank, 0, epoch));
    }

    /** Rank {@code rank}'s sends, isends and collective calls each begin {@code delay} late. */
    void delay(int rank, Duration delay) {
        if (delay.isNegative()) {
            throw new IllegalArgumentException("delay " + delay + " is negative");
        }
        delays.add(new Delay(rank, delay));
    }

    /** A new run begins: every kill may fire again, once. */
    void rearm() {
        kills.forEach(k -> k.fired().set(false));
    }

    /** Every rank a fault names is below {@code size}. */
    void check(int size) {
        for (Kill k : kills) {
            checkRank(k.rank, size);
        }
        for (Delay d : delays) {
            checkRank(d.rank, size);
        }
    }

    /** The faults of {@code rank}. */
    ForRank forRank(int rank) {
        List<Kill> mine = kills.stream().filter(k -> k.rank == rank).toList();
        Duration delay = delays.stream().filter(d -> d.rank == rank).map(Delay::delay).reduce(Duration.ZERO,
                Duration::plus);
        return new ForRank(mine, delay);
    }

    private static void checkRank(int rank, int size) {
        if (rank < 0 || rank >= size) {
            throw new IllegalArgumentException("a fault names rank " + rank + " of a job of " + size + " ranks");
        }
    }

    /** A kill at a call ({@code call} above 0) or at a checkpoint's epoch; {@code fired} once it happened. */
    record Kill(int rank, long call, long epoch, AtomicBoolean fired) {
        Kill(int rank, long call, long epoch) {
            this(rank, call, epoch, new AtomicBoolean());
        }
    }

    /** A delay of every message a rank sends. */
    record Delay(int rank, Duration delay) {
    }

    /** One rank's faults. */
    static final class ForRank {
        static final ForRank NONE = new ForRank(List.of(), Duration.ZERO);

        private final List<Kill> kills;
        private final Duration delay;

        ForRank(List<Kill> kills, Duration delay) {
            this.kills = kills;
            this.delay = delay;
        }

        /** What the rank's program talks to: {@code comm} itself when no fault names the rank. */
        Communicator wrap(Communicator comm, RankRuntime runtime, RankLife life) {
            if (kills.isEmpty() && delay.isZero()) {
                return comm;
            }
            return new FaultyCommunicator(comm, runtime, life, kills, delay);
        }
    }
}
