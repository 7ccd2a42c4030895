package org.sperli.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.sperli.jvm.Clock;
import org.sperli.testing.ManualClock;

/** The rules of {@link DrivenLoop}: who runs the loop, when, and that it ends. */
class DrivenLoopTest {
    private static final long BOUND_S = 5;

    private DrivenLoop loop;
    private Channel server;
    private Channel client;
    private CompletableFuture<Channel> accepted;
    private final AtomicReference<Thread> readOn = new AtomicReference<>();
    private final CountDownLatch read = new CountDownLatch(1);

    @BeforeEach
    void connect() throws Exception {
        connectOn(new DrivenLoop(NioIoHandler.newFactory(), "test-io", 0, Clock.SYSTEM));
    }

    private void connectOn(DrivenLoop newLoop) throws Exception {
        loop = newLoop;
        accepted = new CompletableFuture<>();
        server = new ServerBootstrap().group(loop).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new ChannelInboundHandlerAdapter() {
                            @Override
                            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                ((ByteBuf) msg).release();
                                readOn.set(Thread.currentThread());
                                read.countDown();
                            }
                        });
                        accepted.complete(ch);
                    }
                })
                .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
        client = new Bootstrap().group(loop).channel(NioSocketChannel.class)
                .handler(new ChannelInboundHandlerAdapter())
                .connect(server.localAddress()).sync().channel();
        accepted.get(BOUND_S, TimeUnit.SECONDS);
    }

    @AfterEach
    void close() {
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(BOUND_S, TimeUnit.SECONDS);
    }

    @Test
    void aThreadThatDrivesReadsInItsOwnThread() throws Exception {
        // The keeper takes over only after a minute of nobody driving: on a busy machine this thread can be preempted
        // for more than the usual 5 ms between its write and its drive, and the keeper would then read (as it should).
        close();
        connectOn(new DrivenLoop(NioIoHandler.newFactory(), "test-io", TimeUnit.MILLISECONDS.toNanos(100),
                TimeUnit.MINUTES.toNanos(1), 0, Clock.SYSTEM));
        waitUntilTheKeeperLetsGo();
        assertTrue(asDriver(() -> client.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {1}))).isDone());
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_S);
        while (read.getCount() > 0 && System.nanoTime() < end) {
            assertTrue(loop.drive(TimeUnit.MILLISECONDS.toNanos(100), System.nanoTime(),
                    () -> read.getCount() == 0));
        }
        assertSame(Thread.currentThread(), readOn.get());
    }

    @Test
    void aThreadInterruptedWhileItDrivesReturnsAtOnceWithItsInterruptKept() throws Exception {
        waitUntilTheKeeperLetsGo();
        Thread driving = Thread.currentThread();
        Thread interrupter = new Thread(() -> {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                return;
            }
            driving.interrupt();
        });
        long t0 = System.nanoTime();
        interrupter.start();
        // Nothing arrives and nothing changes: only the interrupt can end this drive before its bound.
        long end = t0 + TimeUnit.SECONDS.toNanos(BOUND_S);
        while (!Thread.currentThread().isInterrupted() && System.nanoTime() < end) {
            assertTrue(loop.drive(TimeUnit.SECONDS.toNanos(BOUND_S), System.nanoTime(), () -> false));
        }
        boolean kept = Thread.interrupted();
        interrupter.join(TimeUnit.SECONDS.toMillis(BOUND_S));
        assertTrue(kept, "the interrupt that came while this thread drove was lost");
        assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(BOUND_S));
    }

    @Test
    void onlyTheDriverIsInTheEventLoop() {
        waitUntilTheKeeperLetsGo();
        assertFalse(loop.inEventLoop());
        assertEquals(Boolean.TRUE, asDriver(loop::inEventLoop));
        assertFalse(loop.inEventLoop());
    }

    @Test
    void whileNobodyDrivesTheKeeperReadsAndRunsTasks() throws Exception {
        client.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {1}));
        assertTrue(read.await(BOUND_S, TimeUnit.SECONDS), "nobody read while no thread drove");
        assertFalse(Thread.currentThread() == readOn.get());
        CompletableFuture<Thread> ranOn = new CompletableFuture<>();
        loop.execute(() -> ranOn.complete(Thread.currentThread()));
        assertEquals("test-io", ranOn.get(BOUND_S, TimeUnit.SECONDS).getName());
    }

    @Test
    void aThreadThatWantsTheLoopWakesTheKeepersSelect() {
        // The keeper's selects last a minute here: only the wake-up of a thread that wants the loop ends them.
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(BOUND_S, TimeUnit.SECONDS);
        loop = new DrivenLoop(NioIoHandler.newFactory(), "test-io", TimeUnit.MINUTES.toNanos(1),
                DrivenLoop.TAKEOVER_NANOS, 0, Clock.SYSTEM);
        assertTimeoutPreemptively(Duration.ofSeconds(BOUND_S * 2), () -> {
            for (int i = 0; i < 5; i++) {
                CompletableFuture<Void> ran = new CompletableFuture<>();
                loop.execute(() -> ran.complete(null));
                ran.get(BOUND_S, TimeUnit.SECONDS);
                assertTrue(loop.drive(TimeUnit.SECONDS.toNanos(BOUND_S), System.nanoTime(), () -> true));
            }
        });
    }

    @Test
    void afterTheShutdownNothingDrivesAndTheChannelsAreClosed() {
        assertTrue(loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(BOUND_S, TimeUnit.SECONDS));
        assertTrue(loop.isTerminated());
        assertFalse(client.isOpen());
        assertFalse(server.isOpen());
        assertFalse(loop.drive(1, System.nanoTime(), () -> false));
        assertNull(loop.callAsDriver(() -> "ran"));
    }

    /**
     * A thread's writes reach the loop in the order it made them, whether it ran one as the driver or queued it
     * because another thread drove: a write it queued must not be overtaken by the next one it makes as the driver.
     * (That happened: a buddy copy's 1 MiB chunks arrived out of order, and the receiver refused the offset.) Another
     * thread drives all the time, so that some writes queue and some do not.
     */
    @Test
    void oneThreadsWritesRunInTheOrderItMadeThem() throws Exception {
        int writes = 200_000;
        List<Integer> order = new ArrayList<>(writes);
        AtomicBoolean writing = new AtomicBoolean(true);
        Thread other = new Thread(() -> {
            while (writing.get()) {
                loop.drive(1000, System.nanoTime(), () -> false);
            }
        }, "other-driver");
        other.start();
        int queued = 0;
        try {
            for (int i = 0; i < writes; i++) {
                Integer write = i;
                // Both run under the drive lock, which orders them: the list needs no lock of its own.
                if (loop.callAsDriver(() -> order.add(write)) == null) {
                    loop.execute(() -> order.add(write));
                    queued++;
                }
            }
        } finally {
            writing.set(false);
            other.join(TimeUnit.SECONDS.toMillis(BOUND_S));
        }
        CompletableFuture<Void> drained = new CompletableFuture<>();
        loop.execute(() -> drained.complete(null));
        drained.get(BOUND_S, TimeUnit.SECONDS);
        assertTrue(queued > 0, "no write was queued: the test did not exercise the hand-over");
        int[] got = loop.submit(() -> order.stream().mapToInt(Integer::intValue).toArray()).get(BOUND_S,
                TimeUnit.SECONDS);
        assertEquals(writes, got.length);
        for (int i = 0; i < got.length; i++) {
            assertEquals(i, got[i], "write " + got[i] + " ran as the " + i + "th (" + queued + " queued)");
        }
    }

    /**
     * While another thread drives, the keeper sleeps longer and longer (up to 40 ms) instead of waking every 5 ms to
     * look: a rank whose program waits in a call must not pay a context switch every 5 ms for nothing. Counted from
     * the keeper thread's voluntary context switches in /proc (Linux), over a second of driving by this thread.
     */
    @Test
    void whileAnotherThreadDrivesTheKeeperWakesSeldom() throws Exception {
        Path keeper = taskNamed("test-io");
        assumeTrue(keeper != null, "no /proc/self/task entry for the keeper");
        waitUntilTheKeeperLetsGo();
        long before = voluntarySwitches(keeper);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
        for (long now = System.nanoTime(); now < end; now = System.nanoTime()) {
            loop.drive(end - now, System.nanoTime(), () -> false);
        }
        long woke = voluntarySwitches(keeper) - before;
        // Every 5 ms would be about 200; sleeps doubling up to 40 ms are under 30.
        assertTrue(woke < 80, "the keeper woke " + woke + " times in a second while this thread drove");
    }

    private static Path taskNamed(String name) throws IOException {
        Path tasks = Path.of("/proc/self/task");
        if (!Files.isDirectory(tasks)) {
            return null;
        }
        try (var entries = Files.list(tasks)) {
            for (Path task : (Iterable<Path>) entries::iterator) {
                try {
                    if (Files.readString(task.resolve("comm")).strip().equals(name)) {
                        return task;
                    }
                } catch (IOException ended) {
                    // a thread that ended while the list was read
                }
            }
        }
        return null;
    }

    private static long voluntarySwitches(Path task) throws IOException {
        for (String line : Files.readAllLines(task.resolve("status"))) {
            if (line.startsWith("voluntary_ctxt_switches:")) {
                return Long.parseLong(line.substring(line.indexOf(':') + 1).strip());
            }
        }
        throw new AssertionError("no voluntary_ctxt_switches in " + task + "/status");
    }

    @Test
    void aThreadThatPollsReadsWhatArrivesAndStopsPollingWhenItsWaitIsOver() throws Exception {
        // A spin of a minute: only the arrival can end this drive within the bound.
        useSpinningLoop();
        Thread writer = new Thread(() -> {
            sleepMs(50);
            client.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {1}));
        });
        writer.start();
        Thread poller = assertTimeoutPreemptively(Duration.ofSeconds(BOUND_S), () -> {
            assertTrue(loop.drive(TimeUnit.MINUTES.toNanos(1), System.nanoTime(), () -> read.getCount() == 0));
            return Thread.currentThread();
        });
        writer.join();
        assertEquals(0, read.getCount());
        assertSame(poller, readOn.get());
    }

    @Test
    void aThreadThatPollsGivesTheLoopToAThreadThatWantsIt() throws Exception {
        useSpinningLoop();
        CompletableFuture<Boolean> poller = CompletableFuture.supplyAsync(
                () -> loop.drive(TimeUnit.MINUTES.toNanos(1), System.nanoTime(), () -> false));
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_S);
        while (loop.inEventLoop(null) && System.nanoTime() < end) {
            Thread.onSpinWait();
        }
        assertFalse(loop.inEventLoop(null), "the poller drives");
        assertTimeoutPreemptively(Duration.ofSeconds(BOUND_S), () -> {
            assertTrue(loop.drive(TimeUnit.SECONDS.toNanos(BOUND_S), System.nanoTime(), () -> true));
            assertTrue(poller.get());
        });
    }

    @Test
    void aThreadInterruptedWhileItPollsReturnsWithItsInterruptKept() throws Exception {
        useSpinningLoop();
        CompletableFuture<Thread> poller = new CompletableFuture<>();
        Thread interrupter = new Thread(() -> {
            try {
                Thread target = poller.get(BOUND_S, TimeUnit.SECONDS);
                sleepMs(50);
                target.interrupt();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        interrupter.start();
        assertTimeoutPreemptively(Duration.ofSeconds(BOUND_S), () -> {
            poller.complete(Thread.currentThread());
            assertTrue(loop.drive(TimeUnit.MINUTES.toNanos(1), System.nanoTime(), () -> false));
            assertTrue(Thread.interrupted());
        });
        interrupter.join();
    }

    @Test
    void aWaitPollsOnlyInTheSpinAfterItBeganNotAtEachPass() throws Exception {
        // Two threads that wait at once end each other's passes: a spin counted from each pass would never sleep.
        useSpinningLoop();
        long began = System.nanoTime() - TimeUnit.MINUTES.toNanos(2);
        assertTimeoutPreemptively(Duration.ofSeconds(BOUND_S), () -> {
            assertTrue(loop.drive(TimeUnit.MILLISECONDS.toNanos(100), began, () -> false));
        });
    }

    @Test
    void aThreadThatPollsOffersItsCoreBetweenTwoPollsAndNotOnceItsWaitIsOver() throws Exception {
        // Two ranks that talk may share one core: a poll that never paused held it while the reply could not come.
        close();
        AtomicInteger pauses = new AtomicInteger();
        connectOn(new DrivenLoop(NioIoHandler.newFactory(), "test-io", TimeUnit.MILLISECONDS.toNanos(100),
                TimeUnit.MINUTES.toNanos(1), TimeUnit.MINUTES.toNanos(1), Clock.SYSTEM, pauses::incrementAndGet));
        waitUntilTheKeeperLetsGo();
        pauses.set(0);
        assertTimeoutPreemptively(Duration.ofSeconds(BOUND_S), () -> {
            assertTrue(loop.drive(TimeUnit.MINUTES.toNanos(1), System.nanoTime(), () -> pauses.get() == 3));
        });
        assertEquals(3, pauses.get(), "one pause before each poll");
        assertTrue(loop.drive(TimeUnit.MINUTES.toNanos(1), System.nanoTime(), () -> true));
        assertEquals(3, pauses.get(), "a wait that is over does not pause");
    }

    @Test
    void aThreadThatBeginsToPollOffersItsCoreBeforeItsFirstPoll() throws Exception {
        // A wait mostly begins right after the thread's own request went out: a poll then finds nothing, and on a
        // shared core the peer that computes the reply may be waiting for it.
        close();
        List<String> steps = Collections.synchronizedList(new ArrayList<>());
        connectOn(new DrivenLoop(NioIoHandler.newFactory(), "test-io", TimeUnit.MILLISECONDS.toNanos(100),
                TimeUnit.MINUTES.toNanos(1), TimeUnit.MINUTES.toNanos(1), Clock.SYSTEM, () -> steps.add("pause")));
        waitUntilTheKeeperLetsGo();
        steps.clear();
        assertTimeoutPreemptively(Duration.ofSeconds(BOUND_S), () -> {
            assertTrue(loop.drive(TimeUnit.MINUTES.toNanos(1), System.nanoTime(), () -> {
                steps.add("look");
                return steps.stream().filter("look"::equals).count() == 3;
            }));
        });
        // The first look is the drive's own, before it spins; each later one follows a poll.
        assertEquals(List.of("look", "pause", "look", "pause", "look"), steps);
    }

    @Test
    void aSendReadsTheClockOnceAndTheLoopsTimeStandsAtThatReadingUntilItsEnd() throws Exception {
        // On one core a message's latency is its CPU, and ten readings of the clock per message were a share of it.
        ReadingsOf clock = useCountingLoop();
        long[] seen = new long[2];
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_S);
        int before;
        Boolean sent;
        do {
            // The keeper may hold the lock at the moment of the try (see asDriver): then try again.
            waitUntilTheKeeperLetsGo();
            before = clock.readings.get();
            sent = loop.callAsDriver(() -> {
                seen[0] = loop.ticker().nanoTime();
                clock.manual.advanceMillis(3);
                seen[1] = loop.ticker().nanoTime();
                return true;
            });
        } while (sent == null && System.nanoTime() < end);
        assertTrue(sent != null, "the keeper never let this thread drive");
        assertEquals(1, clock.readings.get() - before, "the send's pass read the clock once, at its start");
        assertEquals(seen[0], seen[1], "a handler or task in the pass sees the pass's instant");
        assertEquals(seen[0] + TimeUnit.MILLISECONDS.toNanos(3), loop.ticker().nanoTime(),
                "outside a pass the loop's time is the clock's");
    }

    @Test
    void aPollReadsTheClockOnceAndAWaitThatSleepsReadsItAgainAfterwards() throws Exception {
        ReadingsOf clock = useCountingLoop();
        waitUntilTheKeeperLetsGo();
        int before = clock.readings.get();
        assertTrue(loop.drive(1, System.nanoTime(), () -> true));
        assertEquals(1, clock.readings.get() - before, "a wait that is over polls once, at one reading");
        before = clock.readings.get();
        assertTrue(loop.drive(TimeUnit.MILLISECONDS.toNanos(1), System.nanoTime(), () -> false));
        assertTrue(clock.readings.get() - before >= 1, "a pass that waited reads the clock as it goes");
    }

    /** A loop on a manual clock that counts this thread's readings; the keeper takes over only after a minute. */
    private ReadingsOf useCountingLoop() throws Exception {
        close();
        ReadingsOf clock = new ReadingsOf(Thread.currentThread());
        connectOn(new DrivenLoop(NioIoHandler.newFactory(), "test-io", TimeUnit.MILLISECONDS.toNanos(100),
                TimeUnit.MINUTES.toNanos(1), 0, clock));
        return clock;
    }

    /** A manual clock that counts the readings one thread makes (the keeper reads it too, on its own). */
    private static final class ReadingsOf implements Clock {
        final ManualClock manual = new ManualClock();
        final AtomicInteger readings = new AtomicInteger();
        private final Thread counted;

        ReadingsOf(Thread counted) {
            this.counted = counted;
        }

        @Override
        public long nanoTime() {
            if (Thread.currentThread() == counted) {
                readings.incrementAndGet();
            }
            return manual.nanoTime();
        }

        @Override
        public long millis() {
            return manual.millis();
        }

        @Override
        public Instant instant() {
            return manual.instant();
        }
    }

    /** A loop whose waiting threads poll for a minute before they sleep: only the spin's exits end a drive. */
    private void useSpinningLoop() throws Exception {
        close();
        connectOn(new DrivenLoop(NioIoHandler.newFactory(), "test-io", TimeUnit.MILLISECONDS.toNanos(100),
                TimeUnit.MINUTES.toNanos(1), TimeUnit.MINUTES.toNanos(1), Clock.SYSTEM));
        waitUntilTheKeeperLetsGo();
    }

    private static void sleepMs(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The keeper drove the connection's setup; it gives the loop up when a thread wants it, which drive() does. */
    private void waitUntilTheKeeperLetsGo() {
        assertTrue(loop.drive(1, System.nanoTime(), () -> true));
    }

    /**
     * What {@code action} returns, run as the driver. The keeper may take the lock between two of this thread's tries
     * (its select can end at any time), and then {@link DrivenLoop#callAsDriver} declines, as it should: try again.
     */
    private <T> T asDriver(Supplier<T> action) {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_S);
        while (System.nanoTime() < end) {
            waitUntilTheKeeperLetsGo();
            T result = loop.callAsDriver(action);
            if (result != null) {
                return result;
            }
        }
        throw new AssertionError("the keeper never let this thread drive within " + BOUND_S + " s");
    }
}
