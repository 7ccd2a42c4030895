package org.sperli.testkit;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.sperli.Checkpointable;
import org.sperli.Communicator;
import org.sperli.ContributionFold;
import org.sperli.ElementType;
import org.sperli.ReduceOp;
import org.sperli.Request;
import org.sperli.Restored;
import org.sperli.jvm.Clock;
import org.sperli.runtime.RankRuntime;

/**
 * The communicator a faulty rank's program gets: it counts the program's communication calls (sends, receives, their
 * nonblocking forms, collectives and checkpoints; not {@code rank()}, {@code size()}, {@code incarnation()},
 * {@code restored()} or a request's {@code await}) and kills the rank as it enters the call or the checkpoint epoch a
 * {@link Faults.Kill} names, before anything of that call is done; and it waits the rank's delay before every send,
 * isend and collective call. A typed form ({@code allreduce(double[], op)}, an array type's) counts as the calls it
 * makes. Once the rank is killed, every call of any of its threads unwinds with {@link RankLife.Killed}.
 */
final class FaultyCommunicator implements Communicator {
    private final Communicator comm;
    private final RankLife life;
    private final List<Faults.Kill> kills;
    private final long delayNanos;
    private long calls;
    private long lastEpoch;
    private volatile boolean dead;

    FaultyCommunicator(Communicator comm, RankRuntime runtime, RankLife life, List<Faults.Kill> kills,
                       Duration delay) {
        this.comm = comm;
        this.life = life;
        this.kills = kills;
        this.delayNanos = delay.toNanos();
        this.lastEpoch = runtime.restored().map(Restored::epoch).orElse(0L);
    }

    @Override
    public int rank() {
        return comm.rank();
    }

    @Override
    public int size() {
        return comm.size();
    }

    @Override
    public long incarnation() {
        return comm.incarnation();
    }

    @Override
    public Optional<Restored> restored() {
        return comm.restored();
    }

    @Override
    public long checkpoint(Checkpointable state) {
        long epoch;
        synchronized (this) {
            enter(false);
            epoch = lastEpoch + 1;
        }
        for (Faults.Kill k : kills) {
            if (k.epoch() == epoch && k.fired().compareAndSet(false, true)) {
                throw killed();
            }
        }
        long committed = comm.checkpoint(state);
        synchronized (this) {
            lastEpoch = committed;
        }
        return committed;
    }

    @Override
    public void send(int dest, int tag, ByteBuffer data) {
        enter(true);
        comm.send(dest, tag, data);
    }

    @Override
    public Request<Void> isend(int dest, int tag, ByteBuffer data) {
        enter(true);
        return comm.isend(dest, tag, data);
    }

    @Override
    public byte[] recv(int source, int tag) {
        enter(false);
        return comm.recv(source, tag);
    }

    @Override
    public Request<byte[]> irecv(int source, int tag) {
        enter(false);
        return comm.irecv(source, tag);
    }

    @Override
    public void barrier() {
        enter(true);
        comm.barrier();
    }

    @Override
    public byte[] bcast(int root, byte[] dataAtRootOrNull) {
        enter(true);
        return comm.bcast(root, dataAtRootOrNull);
    }

    @Override
    public byte[] reduce(int root, byte[] data, ElementType type, ReduceOp op) {
        enter(true);
        return comm.reduce(root, data, type, op);
    }

    @Override
    public byte[] allreduce(byte[] data, ElementType type, ReduceOp op) {
        enter(true);
        return comm.allreduce(data, type, op);
    }

    @Override
    public List<byte[]> gather(int root, byte[] data) {
        enter(true);
        return comm.gather(root, data);
    }

    @Override
    public byte[] scatter(int root, List<byte[]> blocksAtRootOrNull) {
        enter(true);
        return comm.scatter(root, blocksAtRootOrNull);
    }

    @Override
    public byte[] reduce(int root, byte[] data, ElementType type, ReduceOp op, ContributionFold fold) {
        enter(true);
        return comm.reduce(root, data, type, op, fold);
    }

    @Override
    public byte[] allreduce(byte[] data, ElementType type, ReduceOp op, ContributionFold fold) {
        enter(true);
        return comm.allreduce(data, type, op, fold);
    }

    /** One communication call begins: counted, killed when a kill names it, delayed when it sends. */
    private void enter(boolean sends) {
        if (dead) {
            throw new RankLife.Killed(comm.rank());
        }
        long call;
        synchronized (this) {
            call = ++calls;
        }
        for (Faults.Kill k : kills) {
            if (k.call() == call && k.fired().compareAndSet(false, true)) {
                throw killed();
            }
        }
        if (sends && delayNanos > 0) {
            pause();
        }
    }

    private RankLife.Killed killed() {
        dead = true;
        return life.kill();
    }

    private void pause() {
        Clock clock = life.clock();
        long end = clock.nanoTime() + delayNanos;
        boolean interrupted = false;
        long left;
        while ((left = end - clock.nanoTime()) > 0) {
            try {
                Thread.sleep(left / 1_000_000, (int) (left % 1_000_000));
            } catch (InterruptedException e) {
                interrupted = true;
                break;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
