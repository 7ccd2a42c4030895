package org.sperli.bench;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.AdaptiveByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import javax.net.ssl.SSLContext;
import org.sperli.crypto.Pem;
import org.sperli.identity.JobKit;
import org.sperli.identity.RankCredentials;
import org.sperli.identity.TlsContexts;
import org.sperli.jobspec.JobDescription;
import org.sperli.jvm.Clock;
import org.sperli.protocol.JobId;
import org.sperli.runtime.PeerCertificateCheck;
import org.sperli.runtime.RankConfigs;
import org.sperli.transport.Heartbeats;
import org.sperli.transport.JdkTlsEngineFactory;
import org.sperli.transport.PeerPipeline;
import org.sperli.transport.RecycledArrays;
import org.sperli.transport.TlsEngineFactory;

/**
 * Ranks 1 to N-1 of a job in one JVM, on a few event-loop threads, so that one real rank 0 can be measured in a job
 * of N ranks on one machine: each farm rank has its own certificate and join token from the job's {@link JobKit},
 * listens at its own port of the host list and waits for rank 0 to dial it (in a job rank 0 dials every other rank,
 * protocol section 5). The farm ranks do not connect among themselves: nothing of rank 0's depends on it.
 *
 * <p>It counts what rank 0 cannot say about itself from outside: accepted connections, finished handshakes, checked
 * HELLOs, answered BYEs, closes and failures, and it calls a {@link Milestones} at given handshake counts (the bench
 * samples the rank's CPU there).
 */
final class PeerFarm implements AutoCloseable {
    private static final long HANDSHAKE_TIMEOUT_MS = 120_000;
    private static final String HOST = "127.0.0.1";
    /**
     * One allocator for every farm rank, heap buffers as a rank's (transport.Connections): an allocator keeps chunks
     * of its own, and one per farm rank held gigabytes at 4095 ranks.
     */
    private static final AdaptiveByteBufAllocator ALLOCATOR = new AdaptiveByteBufAllocator(false);

    /** What the bench does when the count of finished handshakes reaches a given value (on an event loop). */
    interface Milestones {
        void accepted(int count);

        void handshaken(int count);
    }

    private final JobKit kit;
    private final ScaleSchedule schedule;
    private final long silenceMs;
    private final EventLoopGroup group;
    private final PeerCertificateCheck certificateCheck;
    private final RecycledArrays arrays = new RecycledArrays();
    private final Map<EventLoop, Heartbeats> heartbeats = new ConcurrentHashMap<>();
    private final List<Channel> servers = new ArrayList<>();
    private final AtomicInteger accepted = new AtomicInteger();
    private final AtomicInteger handshaken = new AtomicInteger();
    private final AtomicInteger hellos = new AtomicInteger();
    private final AtomicInteger byes = new AtomicInteger();
    private final AtomicInteger closed = new AtomicInteger();
    private final AtomicInteger failures = new AtomicInteger();
    private final AtomicReference<String> firstFailure = new AtomicReference<>();
    private volatile Milestones milestones = new Milestones() {
        @Override
        public void accepted(int count) {
        }

        @Override
        public void handshaken(int count) {
        }
    };

    /**
     * A farm for ranks 1 to N-1 of {@code kit}'s job (whose silence limit is {@code silenceMs}), on {@code threads}
     * event-loop threads.
     */
    PeerFarm(JobKit kit, long silenceMs, ScaleSchedule schedule, int threads) {
        this.kit = kit;
        this.silenceMs = silenceMs;
        this.schedule = schedule;
        this.group = new MultiThreadIoEventLoopGroup(threads, NioIoHandler.newFactory());
        this.certificateCheck = RankConfigs.certificateCheck(kit.job(), kit.size());
    }

    /**
     * Makes every farm rank's identity (on all cores, as the launcher does) and listens at each one's port; throws
     * IllegalStateException with one line when a port cannot be had.
     */
    void listen(Instant now) {
        List<FarmRank> ranks = IntStream.range(1, kit.size()).parallel().mapToObj(r -> identity(r, now)).toList();
        for (FarmRank r : ranks) {
            int port = kit.hosts().get(r.peer().rank()).port();
            ServerBootstrap b = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                    .option(ChannelOption.SO_REUSEADDR, true)
                    .option(ChannelOption.SO_BACKLOG, 8)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childOption(ChannelOption.AUTO_CLOSE, false)
                    .childOption(ChannelOption.ALLOCATOR, ALLOCATOR)
                    .childHandler(PeerPipeline.initializer(() -> {
                        milestones.accepted(accepted.incrementAndGet());
                        return r.tls().server();
                    }, HANDSHAKE_TIMEOUT_MS, r.peer()::handshaken));
            ChannelFuture bound = b.bind(new InetSocketAddress(HOST, port)).awaitUninterruptibly();
            if (!bound.isSuccess()) {
                throw new IllegalStateException("the peer farm cannot listen at " + HOST + ":" + port + " for rank "
                        + r.peer().rank() + ": " + bound.cause().getMessage() + " (choose another --port-base)");
            }
            servers.add(bound.channel());
        }
    }

    private record FarmRank(FarmPeer peer, TlsEngineFactory tls) {
    }

    private FarmRank identity(int rank, Instant now) {
        JobDescription d = kit.description(rank, 1, now);
        try {
            SSLContext context = TlsContexts.create(kit.job(), kit.size(), Pem.parseCertificate(d.caCertPem()),
                    RankCredentials.fromPem(d.rankCertPem(), d.rankKeyPem()));
            return new FarmRank(new FarmPeer(this, rank, d.token()), new JdkTlsEngineFactory(context));
        } finally {
            d.destroySecrets();
        }
    }

    void watch(Milestones m) {
        this.milestones = m;
    }

    JobId job() {
        return kit.job();
    }

    int size() {
        return kit.size();
    }

    long silenceMs() {
        return silenceMs;
    }

    ScaleSchedule schedule() {
        return schedule;
    }

    PeerCertificateCheck certificateCheck() {
        return certificateCheck;
    }

    RecycledArrays arrays() {
        return arrays;
    }

    /** The one heartbeat timer of the connections on {@code loop} (a {@link Heartbeats} is used on its loop only). */
    Heartbeats heartbeats(EventLoop loop) {
        return heartbeats.computeIfAbsent(loop, l -> new Heartbeats(l, Clock.SYSTEM));
    }

    void handshaken() {
        milestones.handshaken(handshaken.incrementAndGet());
    }

    void helloChecked() {
        hellos.incrementAndGet();
    }

    void byeAnswered() {
        byes.incrementAndGet();
    }

    void closed() {
        closed.incrementAndGet();
    }

    void failed(String why) {
        failures.incrementAndGet();
        firstFailure.compareAndSet(null, why);
    }

    int handshakes() {
        return handshaken.get();
    }

    int hellosChecked() {
        return hellos.get();
    }

    /** Whether every farm rank has rank 0's HELLO: the farm's mesh is built. */
    boolean allHellosChecked() {
        return hellos.get() == kit.size() - 1;
    }

    int byes() {
        return byes.get();
    }

    int failures() {
        return failures.get();
    }

    /** The first failure a farm rank saw, or null. */
    String firstFailure() {
        return firstFailure.get();
    }

    @Override
    public void close() {
        for (Channel s : servers) {
            s.close();
        }
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(10, TimeUnit.SECONDS);
    }
}
