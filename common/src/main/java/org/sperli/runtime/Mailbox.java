package org.sperli.runtime;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.jvm.Clock;
import org.sperli.transport.FlowControl;
import org.sperli.transport.Frame;
import org.sperli.transport.Progress;

/**
 * The frames of one rank that arrived but were not yet asked for, and the receives posted before their frame: tag
 * matching (MPI's order: the first posted receive of a tag gets the first frame of that tag), one queue per kind of
 * call (DATA, COLLECTIVE, CKPT and RESUME), so that each kind takes only its own frames in arrival order, and the
 * queued bytes reported to each connection's {@link FlowControl}.
 *
 * <p>Frames arrive on the thread that drives the connections' event loop, which is, most of the time, the program
 * thread waiting for them: a waiting thread runs the loop itself ({@link Progress}), and waits on one condition only
 * where it cannot. Every arrival, close and the job's end counts as a change, which ends a wait to look again. Once
 * the job has ended (failed or leaving) arriving frames are dropped.
 */
final class Mailbox {
    /** The heap a queued frame takes besides its payload: the frame, its header, its buffer and the queue's slot. */
    static final long QUEUED_FRAME_OVERHEAD_BYTES = 192;

    // Each method takes the lock itself, lock-try-finally written out, which makes the short ones look alike: deliver
    // runs for every frame on an event loop, and the waits hold the lock across Condition.await, which a helper taking
    // a lambda would hide (holds() serves the one-line reads).
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    /** Counts the changes, so that a thread driving the loop sees one that another thread's driving made. */
    private volatile int changes;
    private final Box[] boxes;
    private final JobFate fate;
    private final Progress progress;
    private final Clock clock;

    /** The state of one peer; guarded by the lock. */
    private static final class Box {
        final int rank;
        FlowControl flow;
        boolean byeReceived;
        boolean closed;
        /** Threads blocked until a collective or checkpoint frame from this peer is queued. */
        int waiters;
        final ArrayDeque<Frame> data = new ArrayDeque<>();
        final ArrayDeque<Frame> collective = new ArrayDeque<>();
        final ArrayDeque<Frame> checkpoint = new ArrayDeque<>();
        /** Receives posted before their message arrived, in posting order. */
        final List<RecvRequest> posted = new ArrayList<>();

        Box(int rank) {
            this.rank = rank;
        }

        boolean present() {
            return !byeReceived && !closed;
        }

        /** Gone, and not by BYE: H1613 unless the job's verdict, due within the close grace, says otherwise. */
        boolean lost() {
            return closed && !byeReceived;
        }

        ArrayDeque<Frame> queue(Kind kind) {
            return kind == Kind.DATA ? data : kind == Kind.COLLECTIVE ? collective : checkpoint;
        }

        boolean wanted() {
            return waiters > 0 || !posted.isEmpty();
        }
    }

    /** Which queue a frame goes to and which kind of call takes from it. */
    enum Kind { DATA, COLLECTIVE, CHECKPOINT }

    /** The mailbox of rank {@code ownRank} in a job of {@code size}, whose bounded waits read {@code clock}. */
    Mailbox(int size, int ownRank, JobFate fate, Progress progress, Clock clock) {
        this.fate = fate;
        this.progress = progress;
        this.clock = clock;
        boxes = new Box[size];
        for (int r = 0; r < size; r++) {
            boxes[r] = r == ownRank ? null : new Box(r);
        }
    }

    /** The connection of {@code peer} is established: its flow control hears of this peer's queued bytes. */
    void attach(int peer, FlowControl flow) {
        lock.lock();
        try {
            boxes[peer].flow = flow;
        } finally {
            lock.unlock();
        }
    }

    // arrivals, on the thread that drives the event loop

    /** A frame of {@code kind} from {@code peer}: to the receive posted for it (DATA), or queued. */
    void deliver(int peer, Kind kind, Frame frame) {
        lock.lock();
        try {
            Box box = boxes[peer];
            if (!fate.running() || !box.present()) {
                frame.release();
                return;
            }
            RecvRequest waiting = kind == Kind.DATA ? takePosted(box, frame.header().tag()) : null;
            if (waiting != null) {
                waiting.matched(frame);
                updateWanted(box);
                signal();
            } else {
                queue(box, box.queue(kind), frame);
            }
        } finally {
            lock.unlock();
        }
    }

    /** The peer said BYE: it sends nothing more. */
    void byeFrom(int peer) {
        lock.lock();
        try {
            boxes[peer].byeReceived = true;
            signal();
        } finally {
            lock.unlock();
        }
    }

    /** The peer's connection closed; returns whether that was expected (after its BYE). */
    boolean closedFrom(int peer) {
        lock.lock();
        try {
            Box box = boxes[peer];
            box.closed = true;
            signal();
            return box.byeReceived;
        } finally {
            lock.unlock();
        }
    }

    /** Wakes every waiting thread, to look at the job's fate again. */
    void wakeAll() {
        lock.lock();
        try {
            signal();
        } finally {
            lock.unlock();
        }
        progress.wakeup();
    }

    // the program's side

    /** Whether any peer closed its connection without BYE. */
    boolean anyLost() {
        lock.lock();
        try {
            for (Box box : boxes) {
                if (box != null && box.lost()) {
                    return true;
                }
            }
            return false;
        } finally {
            lock.unlock();
        }
    }

    /** Whether {@code peer} closed its connection without BYE. */
    boolean lost(int peer) {
        return holds(peer, Box::lost);
    }

    /** Whether {@code peer} can still send: it has neither said BYE nor closed. */
    boolean present(int peer) {
        return holds(peer, Box::present);
    }

    /** {@code test} of {@code peer}'s box, under the lock, so that no arrival changes the box halfway. */
    private boolean holds(int peer, Predicate<Box> test) {
        lock.lock();
        try {
            return test.test(boxes[peer]);
        } finally {
            lock.unlock();
        }
    }

    /** Matches {@code request} with the first queued DATA frame of its tag, or posts it. */
    void post(RecvRequest request) {
        lock.lock();
        try {
            fate.throwIfFailed();
            Box box = boxes[request.source];
            Frame frame = takeData(box, request.tag);
            if (frame != null) {
                taken(box, frame);
                request.matched(frame);
            } else {
                box.posted.add(request);
                updateWanted(box);
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until {@code request} was matched (or {@code timeoutNs} passed: false; negative waits without bound).
     * Throws the job's failure, or H1613 when the source left first.
     */
    boolean awaitMatch(RecvRequest request, long timeoutNs) {
        long began = clock.nanoTime();
        long deadline = began + timeoutNs;
        boolean interrupted = false;
        lock.lock();
        try {
            while (!request.done()) {
                fate.throwIfFailed();
                if (gone(boxes[request.source])) {
                    throw new SperliException(ErrorCode.H1613, "rank " + request.source
                            + " left before sending a message with tag " + request.tag);
                }
                long left = timeoutNs < 0 ? -1 : deadline - clock.nanoTime();
                if (timeoutNs >= 0 && left <= 0) {
                    return false;
                }
                interrupted |= pause(left, began);
                if (interrupted && timeoutNs >= 0) {
                    // a wait with a bound ends at an interrupt; one without keeps waiting, the interrupt kept
                    throw new SperliException(ErrorCode.H1612, "interrupted while waiting for rank " + request.source);
                }
            }
            return true;
        } finally {
            unlockKeeping(interrupted);
        }
    }

    /** Whether {@code request} was matched; throws the job's failure while it was not. */
    boolean testMatch(RecvRequest request) {
        lock.lock();
        try {
            if (request.done()) {
                return true;
            }
            fate.throwIfFailed();
            return false;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Blocks until a frame of {@code kind} from {@code peer} is queued and takes it (the caller releases it). DATA
     * frames that arrived before it stay queued for recv. Throws the job's failure, or H1613 when the peer has left.
     */
    Frame await(int peer, Kind kind) {
        return await(peer, kind, -1);
    }

    /** As {@link #await(int, Kind)}, but returns null once {@code timeoutNs} passed (negative: no bound). */
    Frame await(int peer, Kind kind, long timeoutNs) {
        long began = clock.nanoTime();
        long deadline = began + timeoutNs;
        boolean interrupted = false;
        lock.lock();
        try {
            Box box = boxes[peer];
            ArrayDeque<Frame> queue = box.queue(kind);
            while (true) {
                fate.throwIfFailed();
                Frame f = queue.poll();
                if (f != null) {
                    taken(box, f);
                    return f;
                }
                if (gone(box)) {
                    throw new SperliException(ErrorCode.H1613, "rank " + peer + " left while this rank waited for "
                            + (kind == Kind.COLLECTIVE ? "a collective frame" : "a checkpoint frame"));
                }
                box.waiters++;
                updateWanted(box);
                try {
                    long left = timeoutNs < 0 ? -1 : deadline - clock.nanoTime();
                    if (timeoutNs >= 0 && left <= 0) {
                        return null;
                    }
                    interrupted |= pause(left, began);
                } finally {
                    box.waiters--;
                    updateWanted(box);
                }
            }
        } finally {
            unlockKeeping(interrupted);
        }
    }

    /** Lets the lock go after a wait, and gives back the interrupt the wait kept from its pauses. */
    private void unlockKeeping(boolean interrupted) {
        lock.unlock();
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Payload bytes queued from {@code peer}, not yet asked for. */
    long queuedBytes(int peer) {
        lock.lock();
        try {
            Box box = boxes[peer];
            return box.flow == null ? 0 : box.flow.queuedBytes();
        } finally {
            lock.unlock();
        }
    }

    /** Drops every queued frame (the job ended). */
    void releaseAll() {
        lock.lock();
        try {
            for (Box box : boxes) {
                if (box != null) {
                    for (ArrayDeque<Frame> q : List.of(box.data, box.collective, box.checkpoint)) {
                        Frame f;
                        while ((f = q.poll()) != null) {
                            taken(box, f);
                            f.release();
                        }
                    }
                }
            }
        } finally {
            lock.unlock();
        }
    }

    // under the lock

    /**
     * Waits for a change, up to {@code ns} (negative: until one comes), running the connections meanwhile where this
     * thread can, in a wait that {@code began} then (see {@link Progress#drive}); returns whether an interrupt came,
     * which the caller sets again once it stops waiting (set at once, every later wait would return at once and the
     * loop would spin). Called and returns under the lock, which it lets go while it waits.
     */
    private boolean pause(long ns, long began) {
        int seen = changes;
        boolean drove;
        lock.unlock();
        try {
            drove = progress.drive(ns < 0 ? Progress.LONGEST_DRIVE_NS : ns, began, () -> changes != seen);
        } finally {
            lock.lock();
        }
        if (drove) {
            return Thread.interrupted();
        }
        if (changes != seen) {
            return false;
        }
        try {
            if (ns < 0) {
                changed.await();
            } else {
                changed.awaitNanos(ns);
            }
            return false;
        } catch (InterruptedException e) {
            return true;
        }
    }

    /** A change: waiters look again. */
    private void signal() {
        changes++;
        changed.signalAll();
    }

    /**
     * Whether a waiter on {@code box} gives up with H1613 now. A peer that closed without BYE does not end the wait
     * at once: the job fails within the close grace (see {@code InboundFrames.onClosed}), and the waiter then throws
     * that failure, which may be the verdict of an ABORT that the close overtook.
     */
    private boolean gone(Box box) {
        return !box.present() && !(box.lost() && fate.running());
    }

    private void queue(Box box, ArrayDeque<Frame> queue, Frame frame) {
        Frame kept = frame.detached();
        queue.add(kept);
        if (box.flow != null) {
            box.flow.queued(queuedCost(kept));
        }
        signal();
    }

    private static void taken(Box box, Frame frame) {
        if (box.flow != null) {
            box.flow.taken(queuedCost(frame));
        }
    }

    /**
     * What a queued frame costs the heap: its payload and its objects ({@link #QUEUED_FRAME_OVERHEAD_BYTES}), so that
     * flow control bounds a queue of many small messages as well as one of a few large ones.
     */
    static long queuedCost(Frame frame) {
        return frame.header().length() + QUEUED_FRAME_OVERHEAD_BYTES;
    }

    private void updateWanted(Box box) {
        if (box.flow != null) {
            box.flow.wanted(box.wanted() && !fate.leaving());
        }
    }

    private static Frame takeData(Box box, long tag) {
        for (Iterator<Frame> it = box.data.iterator(); it.hasNext(); ) {
            Frame f = it.next();
            if (f.header().tag() == tag) {
                it.remove();
                return f;
            }
        }
        return null;
    }

    private static RecvRequest takePosted(Box box, long tag) {
        for (Iterator<RecvRequest> it = box.posted.iterator(); it.hasNext(); ) {
            RecvRequest r = it.next();
            if (r.tag == tag) {
                it.remove();
                return r;
            }
        }
        return null;
    }
}
