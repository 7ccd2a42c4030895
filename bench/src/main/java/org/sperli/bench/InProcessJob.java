package org.sperli.bench;

import java.io.IOException;
import java.net.ServerSocket;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.IntFunction;
import javax.net.ssl.SSLContext;
import org.sperli.crypto.CompositeSig;
import org.sperli.identity.JobCa;
import org.sperli.identity.RankCredentials;
import org.sperli.identity.TlsContexts;
import org.sperli.identity.TlsSockets;
import org.sperli.jobspec.JoinToken;
import org.sperli.jobspec.JoinTokens;
import org.sperli.jvm.Clock;
import org.sperli.protocol.JobId;
import org.sperli.runtime.CollectiveShape;
import org.sperli.runtime.PeerAddress;
import org.sperli.runtime.RankConfig;
import org.sperli.runtime.RankConfigs;
import org.sperli.runtime.RankRuntime;
import org.sperli.transport.JdkTlsEngineFactory;
import org.sperli.transport.LeakDetection;
import org.sperli.transport.TlsEngineFactory;

/**
 * A whole job in one JVM for benchmarks (the bench module cannot see the test helpers): a job CA with one Ed25519
 * certificate per rank, a job key and signed join tokens, and a free loopback port per rank on 127.0.0.1.
 *
 * <p>{@link #run} connects all ranks in parallel (each on its own thread), runs a per-rank body, closes every runtime
 * and returns the bodies' values by rank. The parts ({@link #sslContext}, {@link #config}, ...) are public so that a
 * benchmark can build a bare JSSE baseline from the same certificates, or wrap the TLS engine factory.
 */
public final class InProcessJob {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String HOST = "127.0.0.1";

    private final JobId job = JobId.random(RANDOM);
    private final int size;
    private final long incarnation;
    private final long silenceMs;
    private final JobCa ca;
    private final CompositeSig.KeyPair jobKey = CompositeSig.generate(RANDOM);
    private final List<PeerAddress> hosts = new ArrayList<>();
    private final List<RankCredentials> credentials = new ArrayList<>();
    private final List<String> log = Collections.synchronizedList(new ArrayList<>());
    private CollectiveShape collectives = CollectiveShape.MESH;

    /** A job of {@code size} ranks, incarnation 1, silence limit 30 s (generous: benchmarks share a loaded box). */
    public InProcessJob(int size) {
        this(size, 1, 30_000);
    }

    public InProcessJob(int size, long incarnation, long silenceMs) {
        // As in a rank process (org.sperli.rankd.Main): the threads here stand for ranks.
        LeakDetection.offUnlessAsked();
        this.size = size;
        this.incarnation = incarnation;
        this.silenceMs = silenceMs;
        Instant now = Instant.now();
        this.ca = JobCa.create(job, now, RANDOM);
        for (int r = 0; r < size; r++) {
            hosts.add(new PeerAddress(HOST, freePort()));
            credentials.add(ca.issueRankCertificate(job, r, HOST, now));
        }
    }

    /** Every rank offers {@code shape} (default: the mesh, as a rank started without options). */
    public InProcessJob collectives(CollectiveShape shape) {
        this.collectives = shape;
        return this;
    }

    public JobId job() {
        return job;
    }

    public int size() {
        return size;
    }

    public X509Certificate caCertificate() {
        return ca.certificate();
    }

    public RankCredentials credentials(int rank) {
        return credentials.get(rank);
    }

    public List<PeerAddress> hosts() {
        return List.copyOf(hosts);
    }

    /** Operator notes the runtimes logged so far ("rank N: ..."). */
    public List<String> log() {
        synchronized (log) {
            return List.copyOf(log);
        }
    }

    /** The rank's JSSE context, exactly as the runtime gets it: TLS 1.3 only, job CA trust, rank certificate. */
    public SSLContext sslContext(int rank) {
        return TlsContexts.create(job, size, ca.certificate(), credentials.get(rank));
    }

    /**
     * The same identity and trust as a JDK context that makes sockets ({@link TlsSockets}), for the bare-JSSE baseline:
     * the runtime's own contexts make engines only.
     */
    public SSLContext socketContext(int rank) {
        return TlsSockets.context(job, size, ca.certificate(), credentials.get(rank));
    }

    /** The rank's default TLS engine factory (JDK provider over {@link #sslContext}). */
    public TlsEngineFactory tlsEngineFactory(int rank) {
        return new JdkTlsEngineFactory(sslContext(rank));
    }

    /** A signed join token for {@code rank}, valid for an hour. */
    public byte[] token(int rank) {
        return JoinTokens.sign(JoinToken.unsigned(job, rank, size, incarnation,
                System.currentTimeMillis() + 3_600_000, hosts.get(rank).host()), jobKey.secretKey());
    }

    public RankConfig config(int rank) {
        return config(rank, tlsEngineFactory(rank));
    }

    /** The rank's configuration with the given TLS engine factory (e.g. one that records its engines). */
    public RankConfig config(int rank, TlsEngineFactory tls) {
        return new RankConfig(job, size, rank, incarnation, silenceMs, hosts, token(rank),
                (token, peer, now) -> JoinTokens.verify(token, jobKey.publicKey(), job, peer, peer, size,
                        incarnation, hosts.get(peer).host(), now),
                tls,
                RankConfigs.certificateCheck(job, size),
                Clock.SYSTEM, Duration.ofSeconds(30), Duration.ofSeconds(30),
                line -> log.add("rank " + rank + ": " + line), null).withCollectives(collectives);
    }

    /** {@link #run(Duration, IntFunction, Function)} with the default configurations. */
    public <T> List<T> run(Duration limit, Function<RankRuntime, T> body) {
        return run(limit, this::config, body);
    }

    /**
     * Connects every rank with {@code configs.apply(rank)} in parallel, runs {@code body} on each rank's own thread,
     * closes every runtime and returns the values by rank. Throws IllegalStateException when a rank failed (its
     * exception is the cause) or did not finish within {@code limit}.
     */
    public <T> List<T> run(Duration limit, IntFunction<RankConfig> configs, Function<RankRuntime, T> body) {
        ExecutorService pool = Executors.newFixedThreadPool(size, r -> {
            Thread t = new Thread(r);
            t.setDaemon(true);
            return t;
        });
        List<Future<T>> futures = new ArrayList<>();
        try {
            for (int r = 0; r < size; r++) {
                RankConfig config = configs.apply(r);
                int rank = r;
                futures.add(pool.submit(() -> {
                    Thread.currentThread().setName("rank-" + rank);
                    try (RankRuntime runtime = RankRuntime.connect(config)) {
                        return body.apply(runtime);
                    }
                }));
            }
            long deadline = System.nanoTime() + limit.toNanos();
            List<T> values = new ArrayList<>();
            for (int r = 0; r < size; r++) {
                try {
                    values.add(futures.get(r).get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
                } catch (ExecutionException e) {
                    throw new IllegalStateException("rank " + r + " failed: " + e.getCause() + "; log: " + log(),
                            e.getCause());
                }
            }
            return values;
        } catch (TimeoutException e) {
            throw new IllegalStateException("a rank did not finish within " + limit + "; log: " + log(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } finally {
            pool.shutdownNow();
        }
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
