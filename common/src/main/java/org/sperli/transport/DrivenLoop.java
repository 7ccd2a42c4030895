package org.sperli.transport;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelPromise;
import io.netty.channel.DefaultChannelPromise;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoEventLoopGroup;
import io.netty.channel.IoHandle;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerContext;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.IoRegistration;
import io.netty.util.concurrent.AbstractScheduledEventExecutor;
import io.netty.util.concurrent.DefaultPromise;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.netty.util.concurrent.Promise;
import io.netty.util.concurrent.Ticker;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.sperli.jvm.Clock;

/**
 * One rank's event loop, run by whichever thread holds its drive lock: a program thread that waits for a frame runs
 * the loop itself (it reads, decrypts and delivers the frame in its own thread), and a send from a thread that can
 * take the lock encrypts and writes at once. A frame then costs no hand-off between threads on either side, which on
 * a small machine was most of a message's time (two wake-ups per message: to the event-loop thread and back).
 *
 * <p>While no program thread drives, the loop's own thread (the keeper) does: once the lock has been free for
 * {@link #TAKEOVER_NANOS}, at once when a task is queued with nobody driving, and for the shutdown. So heartbeats,
 * silence timers and background sends run while the program computes. A thread that wants the lock while the keeper
 * holds it wakes the keeper's select, which then gives the lock up.
 *
 * <p>A thread that waits polls instead of sleeping for the first {@code spinNanos} of its wait (see {@link WaitSpin}):
 * on a machine with a core for each rank, a reply that comes within a few tens of microseconds is then taken without
 * the thread going to sleep in the select and being woken, a large part of a small message's round trip (see
 * docs/performance.md, section 6.1).
 *
 * <p>Netty's rule that a channel is touched by one thread at a time holds: {@link #inEventLoop(Thread)} is true only
 * for the thread that holds the lock, and the lock orders what each holder did before the next.
 *
 * <p>All its time is the rank's {@link Clock}: the spin, the keeper's takeover, and, through {@link #ticker}, every
 * scheduled task and every handler that reads its executor's time (the silence, the heartbeats, the close grace). A
 * pass that does not wait (a poll, a send) happens at one instant, the clock's reading at its start: its due tasks,
 * the times of its reads and writes and of its end are that reading rather than a reading each (on one core, where
 * a small message's latency is its CPU, they were a share of it; docs/performance.md, section 6.7). A pass that
 * waits reads the clock as it goes.
 */
public final class DrivenLoop extends AbstractScheduledEventExecutor implements IoEventLoop, Progress {
    /**
     * How long the lock may be free before the keeper drives: long enough that a program between two calls (a send,
     * then a receive) is not interrupted, short against the heartbeat interval (1 s).
     */
    static final long TAKEOVER_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    /**
     * The keeper's longest sleep while another thread drives: it looks twice as seldom each time it finds one driving,
     * from {@link #TAKEOVER_NANOS} up to this. A rank whose program waits in a call (a collective that waits for a slow
     * rank, or the mesh being built) is driven by that thread; a keeper that still woke every 5 ms cost one context
     * switch each, CPU that the other ranks sharing the cores then lack (see docs/performance.md, section 5). When the
     * driver lets go, the keeper takes over this much later at the most: heartbeats are sent every second and a peer
     * is lost after seconds, and a task queued meanwhile wakes the keeper at once.
     */
    static final long LONGEST_KEEPER_SLEEP_NANOS = TimeUnit.MILLISECONDS.toNanos(40);
    /** The keeper's longest select: it looks at the shutdown and at waiting threads at least this often. */
    private static final long KEEPER_SELECT_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final int SHUTDOWN_PASSES = 4;
    private static final int TASKS_PER_PASS = 1024;
    private static final int RUNNING = 0;
    private static final int SHUTTING_DOWN = 1;
    private static final int TERMINATED = 2;

    private final ReentrantLock drive = new ReentrantLock();
    /** The thread that holds {@link #drive}, or null. */
    private volatile Thread driver;
    /** Threads that wait for {@link #drive} and have woken the current driver's select. */
    private final AtomicInteger wanting = new AtomicInteger();
    private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final IoHandler handler;
    private final Promise<?> termination = new DefaultPromise<Void>(GlobalEventExecutor.INSTANCE);
    private final AtomicInteger state = new AtomicInteger(RUNNING);
    private final Thread keeper;
    private final Context context = new Context();
    private final Clock clock;
    private final Ticker ticker;
    private volatile long releasedAt;
    /** The clock's reading at the start of the lock holder's pass; the loop's time while {@link #inPass}. */
    private long passNanos;
    /** Whether the lock holder is in a pass that does not wait: {@link #ticker} then gives {@link #passNanos}. */
    private boolean inPass;
    private volatile boolean poked;
    private boolean initialized;
    private final long keeperSelectNanos;
    private final long takeoverNanos;
    private final long spinNanos;
    /** What a polling thread does between two polls: {@link WaitSpin#pause}. */
    private final Runnable pause;

    /** A loop on {@code clock} whose waiting threads poll for {@code spinNanos} before they sleep (0: never). */
    public DrivenLoop(IoHandlerFactory factory, String keeperName, long spinNanos, Clock clock) {
        this(factory, keeperName, KEEPER_SELECT_NANOS, TAKEOVER_NANOS, spinNanos, clock, WaitSpin::pause);
    }

    /**
     * With the keeper's longest select and its takeover delay given: a test makes the select long, so that only a
     * wake-up can end it, or the takeover long, so that a thread preempted between two drives on a busy machine does
     * not see the keeper drive in the gap.
     */
    DrivenLoop(IoHandlerFactory factory, String keeperName, long keeperSelectNanos, long takeoverNanos,
               long spinNanos, Clock clock) {
        this(factory, keeperName, keeperSelectNanos, takeoverNanos, spinNanos, clock, WaitSpin::pause);
    }

    /** With what a polling thread does between two polls given too: a test counts the pauses. */
    DrivenLoop(IoHandlerFactory factory, String keeperName, long keeperSelectNanos, long takeoverNanos,
               long spinNanos, Clock clock, Runnable pause) {
        this.pause = pause;
        this.clock = clock;
        this.ticker = ClockTicker.reading(this::loopNanos);
        this.releasedAt = clock.nanoTime();
        this.keeperSelectNanos = keeperSelectNanos;
        this.takeoverNanos = takeoverNanos;
        this.spinNanos = spinNanos;
        this.handler = factory.newHandler(this);
        this.keeper = new Thread(this::keep, keeperName);
        keeper.setDaemon(true);
        keeper.start();
    }

    // driving, for waiting and sending threads

    /**
     * Runs the loop once in the calling thread: handles what is ready and waits up to {@code maxNanos} for more, but
     * not at all when {@code changed} already says the caller's wait is over (an arrival that another thread's
     * driving made meanwhile). Before it sleeps it polls until the spin after {@code waitBegan} ran out, and returns
     * as soon as {@code changed} says so or another thread wants the lock. A thread that had to wait for the lock
     * only handles what is ready and returns, so that its caller looks again. Returns false, without running, once the
     * loop has ended: the caller waits otherwise.
     */
    @Override
    public boolean drive(long maxNanos, long waitBegan, BooleanSupplier changed) {
        if (state.get() == TERMINATED || drive.isHeldByCurrentThread()) {
            // A handler of this loop that waits cannot run the loop inside its own pass.
            return false;
        }
        // An interrupted thread's select returns at once: the flag is kept for the caller, not for the select.
        boolean interrupted = Thread.interrupted();
        boolean waited = acquire();
        boolean polled = false;
        try {
            if (state.get() != RUNNING) {
                return false;
            }
            if (waited || changed.getAsBoolean()) {
                poll(clock.nanoTime());
                polled = true;
            } else if (spin(waitBegan, changed)) {
                polled = true;
            } else {
                runOnce(Math.max(1, maxNanos));
            }
            return true;
        } finally {
            release(polled ? passNanos : clock.nanoTime());
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Polls the loop without sleeping until {@link #spinNanos} after {@code waitBegan}; true as soon as the caller's
     * wait is over, another thread wants the lock or this one was interrupted (the caller then looks again), false
     * when the spin ran out. Bounded by the wait's start, not by this call's: two threads that wait at once end each
     * other's passes, and a spin counted from each call would then poll for as long as both wait. Before each poll,
     * the first one too, the thread offers its core ({@link #pause}): the peer it waits for may be queued on the same
     * core, and a wait mostly begins right after this thread's own request went out, when no reply can be there yet
     * (a poll that finds nothing costs more than the offer; docs/performance.md, section 6.6).
     */
    private boolean spin(long waitBegan, BooleanSupplier changed) {
        long end = waitBegan + spinNanos;
        if (spinNanos <= 0 || clock.nanoTime() - end >= 0) {
            return false;
        }
        long now;
        do {
            pause.run();
            now = clock.nanoTime();
            poll(now);
            if (changed.getAsBoolean() || wanting.get() > 0 || Thread.currentThread().isInterrupted()) {
                return true;
            }
        } while (now - end < 0);
        return false;
    }

    /**
     * What {@code action} returns, run as the loop's driver when the lock is free now and every queued task could run
     * first, so that a write goes out from the calling thread after all that was queued before it (and the tasks it
     * queued run before the lock is let go); null, without running it, otherwise: the caller then queues the write
     * for the driver, behind the rest.
     */
    public <T> T callAsDriver(Supplier<T> action) {
        if (drive.isHeldByCurrentThread()) {
            return action.get();
        }
        if (state.get() != RUNNING || !drive.tryLock()) {
            return null;
        }
        driver = Thread.currentThread();
        passNanos = clock.nanoTime();
        inPass = true;
        try {
            // What is queued goes first: this thread's own earlier write may be among it, queued while another thread
            // drove, and a write must not overtake the one its thread made before it.
            runTasks();
            if (!tasks.isEmpty()) {
                // More than one pass is queued (or a task queued another): this write queues behind it.
                return null;
            }
            T result = action.get();
            runTasks();
            return result;
        } finally {
            inPass = false;
            release(passNanos);
        }
    }

    @Override
    public void wakeup() {
        if (state.get() != TERMINATED) {
            handler.wakeup();
        }
    }

    /** Takes the lock; returns whether another thread held it first (then its select was woken). */
    private boolean acquire() {
        if (drive.tryLock()) {
            driver = Thread.currentThread();
            return false;
        }
        wanting.incrementAndGet();
        try {
            handler.wakeup();
            drive.lock();
        } finally {
            wanting.decrementAndGet();
        }
        driver = Thread.currentThread();
        return true;
    }

    /** Lets the lock go, which the keeper counts its takeover from: {@code now} is the clock's latest reading. */
    private void release(long now) {
        driver = null;
        releasedAt = now;
        drive.unlock();
        if (!tasks.isEmpty() || state.get() != RUNNING) {
            poke();
        }
    }

    private void poke() {
        poked = true;
        LockSupport.unpark(keeper);
    }

    /** One pass that does not wait, all of it at {@code now} on the loop's {@link #ticker}. */
    private void poll(long now) {
        passNanos = now;
        inPass = true;
        try {
            runOnce(-1);
        } finally {
            inPass = false;
        }
    }

    /** One pass: I/O (waiting up to {@code waitNanos} when positive and nothing is queued), then the due tasks. */
    private void runOnce(long waitNanos) {
        if (!initialized) {
            initialized = true;
            handler.initialize();
        }
        context.maxWaitNanos = waitNanos;
        handler.run(context);
        runTasks();
    }

    /** Runs the due tasks, at most {@link #TASKS_PER_PASS}: a task that queues another cannot keep a pass going. */
    private void runTasks() {
        fetchFromScheduledTaskQueue(tasks);
        Runnable task;
        for (int ran = 0; ran < TASKS_PER_PASS && (task = tasks.poll()) != null; ran++) {
            safeExecute(task);
        }
    }

    // the keeper

    private void keep() {
        long sleep = takeoverNanos;
        while (state.get() != TERMINATED) {
            // Only the shutdown stops the keeper: a stray interrupt would make its park and select return at once.
            Thread.interrupted();
            LockSupport.parkNanos(this, sleep);
            boolean pokedNow = poked;
            poked = false;
            if (state.get() == SHUTTING_DOWN) {
                acquire();
                try {
                    finishShutdown();
                } finally {
                    release(clock.nanoTime());
                }
                return;
            }
            if (driver != null || wanting.get() > 0
                    || !pokedNow && clock.nanoTime() - releasedAt < takeoverNanos || !drive.tryLock()) {
                sleep = driver != null && !pokedNow ? Math.min(2 * sleep, LONGEST_KEEPER_SLEEP_NANOS) : takeoverNanos;
                continue;
            }
            sleep = takeoverNanos;
            driver = Thread.currentThread();
            try {
                do {
                    Thread.interrupted();
                    runOnce(keeperSelectNanos);
                } while (wanting.get() == 0 && state.get() == RUNNING);
            } finally {
                release(clock.nanoTime());
            }
        }
    }

    private void finishShutdown() {
        runOnce(-1);
        handler.prepareToDestroy();
        // Closing the channels queues their last tasks (inactive events, promises): a few passes run them.
        for (int pass = 0; pass < SHUTDOWN_PASSES; pass++) {
            runOnce(-1);
        }
        cancelScheduledTasks();
        handler.destroy();
        runTasks();
        state.set(TERMINATED);
        termination.setSuccess(null);
    }

    /** What the I/O handler may do in one pass. */
    private final class Context implements IoHandlerContext {
        /** Positive: the longest wait; otherwise no wait. */
        long maxWaitNanos;

        /**
         * Also false once the driving thread is interrupted. Netty's NIO handler asks this when its select returned
         * with nothing to do, and only then clears the thread's interrupt (it takes an interrupt for a stray
         * wake-up): so a program thread interrupted while it waited in a receive and drove the loop kept waiting
         * and lost its interrupt, and a receive with a bound ran to its bound instead of ending with H1612. That
         * order is Netty's, not an API: {@code DrivenLoopTest} and {@code InterruptTest} fail if it changes.
         */
        @Override
        public boolean canBlock() {
            return maxWaitNanos > 0 && tasks.isEmpty() && !hasScheduledTasks()
                    && !Thread.currentThread().isInterrupted();
        }

        @Override
        public long delayNanos(long currentTimeNanos) {
            long next = nextScheduledTaskNano();
            long max = Math.max(0, maxWaitNanos);
            return next < 0 ? max : Math.min(max, next);
        }

        @Override
        public long deadlineNanos() {
            return clock.nanoTime() + delayNanos(clock.nanoTime());
        }
    }

    /**
     * The rank's clock as Netty's scheduler and the handlers on this loop read it ({@link #ticker}): in a pass that
     * does not wait, for the thread that runs it, the pass's instant.
     */
    private long loopNanos() {
        return driver == Thread.currentThread() && inPass ? passNanos : clock.nanoTime();
    }

    // Netty's event loop

    /** The rank's clock, which the scheduled tasks and the handlers on this loop read. */
    @Override
    public Ticker ticker() {
        return ticker;
    }

    @Override
    public boolean inEventLoop(Thread thread) {
        return driver == thread;
    }

    @Override
    public void execute(Runnable task) {
        if (state.get() == TERMINATED) {
            throw new RejectedExecutionException("the rank's event loop has ended");
        }
        tasks.add(task);
        if (!inEventLoop()) {
            handler.wakeup();
            if (driver == null) {
                poke();
            }
        }
    }

    @Override
    public DrivenLoop next() {
        return this;
    }

    @Override
    public IoEventLoopGroup parent() {
        return null;
    }

    @Override
    public Future<IoRegistration> register(IoHandle handle) {
        Promise<IoRegistration> promise = newPromise();
        Runnable register = () -> {
            try {
                promise.setSuccess(handler.register(handle));
            } catch (Exception e) {
                promise.setFailure(e);
            }
        };
        if (inEventLoop()) {
            register.run();
        } else {
            execute(register);
        }
        return promise;
    }

    @Deprecated
    @Override
    public ChannelFuture register(Channel channel) {
        return register(new DefaultChannelPromise(channel, this));
    }

    @Override
    public ChannelFuture register(ChannelPromise promise) {
        promise.channel().unsafe().register(this, promise);
        return promise;
    }

    @Deprecated
    @Override
    public ChannelFuture register(Channel channel, ChannelPromise promise) {
        channel.unsafe().register(this, promise);
        return promise;
    }

    @Override
    public boolean isCompatible(Class<? extends IoHandle> handleType) {
        return handler.isCompatible(handleType);
    }

    @Override
    public boolean isIoType(Class<? extends IoHandler> handlerType) {
        return handler.getClass().equals(handlerType);
    }

    @Override
    public Future<?> shutdownGracefully(long quietPeriod, long timeout, TimeUnit unit) {
        if (state.compareAndSet(RUNNING, SHUTTING_DOWN)) {
            handler.wakeup();
            poke();
        }
        return termination;
    }

    @Deprecated
    @Override
    public void shutdown() {
        shutdownGracefully(0, 0, TimeUnit.SECONDS);
    }

    @Override
    public Future<?> terminationFuture() {
        return termination;
    }

    @Override
    public boolean isShuttingDown() {
        return state.get() != RUNNING;
    }

    @Override
    public boolean isShutdown() {
        return state.get() != RUNNING;
    }

    @Override
    public boolean isTerminated() {
        return state.get() == TERMINATED;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return termination.await(timeout, unit);
    }
}
