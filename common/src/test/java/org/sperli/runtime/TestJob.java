package org.sperli.runtime;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.WeakHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.sperli.SperliException;
import org.sperli.crypto.CompositeSig;
import org.sperli.identity.JobCa;
import org.sperli.identity.RankCredentials;
import org.sperli.identity.TlsContexts;
import org.sperli.jobspec.JoinToken;
import org.sperli.jobspec.JoinTokens;
import org.sperli.jvm.Clock;
import org.sperli.protocol.JobId;
import org.sperli.transport.JdkTlsEngineFactory;

/**
 * A whole job in one JVM for tests: a job CA, rank certificates, a job key, signed tokens and free loopback ports,
 * and a runner that gives every rank its own thread and bounds every wait.
 */
public final class TestJob {
    /**
     * The parts of every runtime {@link #run} connected, by runtime: a test looks inside a running rank through them
     * ({@link #parts}), as the runtime itself offers no view inside.
     */
    private static final Map<RankRuntime, RankParts> PARTS = Collections.synchronizedMap(new WeakHashMap<>());

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final CompositeSig.KeyPair JOB_KEY = CompositeSig.generate(RANDOM);

    public final JobId job;
    public final int size;
    public final long incarnation;
    public final long silenceMs;
    public final JobCa ca;
    public final List<PeerAddress> hosts = new ArrayList<>();
    public final List<RankCredentials> credentials = new ArrayList<>();
    public final List<String> log = java.util.Collections.synchronizedList(new ArrayList<>());
    /** Each rank's own checkpoint directory (every host has its own disk), or null: checkpoints off. */
    public final List<Path> checkpointDirs;
    private volatile Duration checkpointWaitLimit = CheckpointSettings.DEFAULT_WAIT_LIMIT;
    private final Map<Integer, Long> silenceAt = new ConcurrentHashMap<>();
    private final Map<Integer, CollectiveShape> shapeAt = new ConcurrentHashMap<>();
    private CollectiveShape shape = CollectiveShape.MESH;
    private final Set<Integer> checkpointsOffAt = ConcurrentHashMap.newKeySet();

    public TestJob(int size) {
        this(size, 1, 5000);
    }

    public TestJob(int size, long incarnation, long silenceMs) {
        this(JobId.random(RANDOM), null, size, incarnation, silenceMs, null);
    }

    private TestJob(JobId job, JobCa caOrNull, int size, long incarnation, long silenceMs, List<Path> checkpointDirs) {
        this.job = job;
        this.size = size;
        this.incarnation = incarnation;
        this.silenceMs = silenceMs;
        this.checkpointDirs = checkpointDirs == null ? null : List.copyOf(checkpointDirs);
        Instant now = Instant.now();
        this.ca = caOrNull != null ? caOrNull : JobCa.create(job, now, RANDOM);
        for (int port : freePorts(size)) {
            hosts.add(new PeerAddress("127.0.0.1", port));
        }
        for (int r = 0; r < size; r++) {
            credentials.add(ca.issueRankCertificate(job, r, "127.0.0.1", now));
        }
    }

    /** A job of {@code size} ranks at incarnation 1 with checkpoints on, rank r's directory {@code root/rank-r}. */
    public static TestJob withCheckpoints(int size, Path root) {
        return new TestJob(JobId.random(RANDOM), null, size, 1, 5000, checkpointDirsUnder(root, size));
    }

    /** The same job (id, CA, key, checkpoint directories) restarted: incarnation + 1, fresh ports. */
    public TestJob restart() {
        return new TestJob(job, ca, size, incarnation + 1, silenceMs, checkpointDirs);
    }

    /** As {@link #restart} with another size; the checkpoint directories are {@code root/rank-r} again. */
    public TestJob restartWithSize(int newSize, Path root) {
        return new TestJob(job, ca, newSize, incarnation + 1, silenceMs, checkpointDirsUnder(root, newSize));
    }

    private static List<Path> checkpointDirsUnder(Path root, int size) {
        List<Path> dirs = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            dirs.add(root.resolve("rank-" + r));
        }
        return dirs;
    }

    /** Rank r's checkpoint settings: its directory, the job public key, and the signing key at rank 0. */
    public CheckpointSettings checkpointSettings(int rank) {
        if (checkpointDirs == null || checkpointsOffAt.contains(rank)) {
            return null;
        }
        return new CheckpointSettings(checkpointDirs.get(rank), JOB_KEY.publicKey(),
                rank == 0 ? JOB_KEY.secretKey() : null, checkpointWaitLimit);
    }

    /** From now on, the ranks' checkpoint wait limit is {@code limit} (default: the settings' default). */
    public TestJob checkpointWaitLimit(Duration limit) {
        this.checkpointWaitLimit = limit;
        return this;
    }

    /**
     * From now on, rank {@code rank}'s description has the silence limit {@code ms} instead of the job's: descriptions
     * that differ, which a launcher never makes.
     */
    public TestJob silenceMsAt(int rank, long ms) {
        silenceAt.put(rank, ms);
        return this;
    }

    /** From now on, rank {@code rank} runs without checkpoint settings: it takes no part in a checkpoint or resume. */
    public TestJob checkpointsOffAt(int rank) {
        checkpointsOffAt.add(rank);
        return this;
    }

    public static CompositeSig.KeyPair jobKey() {
        return JOB_KEY;
    }

    /** A signed token for {@code rank}, valid for an hour. */
    public byte[] token(int rank) {
        return JoinTokens.sign(JoinToken.unsigned(job, rank, size, incarnation,
                System.currentTimeMillis() + 3_600_000, hosts.get(rank).host()), JOB_KEY.secretKey());
    }

    public RankConfig config(int rank) {
        return config(rank, token(rank));
    }

    public RankConfig config(int rank, byte[] ownToken) {
        return new RankConfig(job, size, rank, incarnation, silenceAt.getOrDefault(rank, silenceMs), hosts, ownToken,
                (token, peer, now) -> JoinTokens.verify(token, JOB_KEY.publicKey(), job, peer, peer, size,
                        incarnation, hosts.get(peer).host(), now),
                new JdkTlsEngineFactory(TlsContexts.create(job, size, ca.certificate(), credentials.get(rank))),
                RankConfigs.certificateCheck(job, size),
                Clock.SYSTEM, Duration.ofSeconds(10), Duration.ofSeconds(5),
                line -> log.add("rank " + rank + ": " + line), checkpointSettings(rank))
                .withCollectives(shapeAt.getOrDefault(rank, shape));
    }

    /** Every rank offers {@code offered} (the default: the mesh, as a rank started without options). */
    public TestJob collectives(CollectiveShape offered) {
        this.shape = offered;
        return this;
    }

    /** Rank {@code rank} offers {@code offered}, the others what {@link #collectives} said. */
    public TestJob collectivesAt(int rank, CollectiveShape offered) {
        shapeAt.put(rank, offered);
        return this;
    }

    /** What one rank's body gave: a value or the SperliException it ended with. */
    public record Outcome<T>(T value, SperliException error) {
        public T get() {
            if (error != null) {
                throw new AssertionError("rank failed: " + error.getMessage(), error);
            }
            return value;
        }
    }

    /**
     * {@link #run} for tests of how a job ends: each rank's "value | failure message" (the message empty while the job
     * did not fail), or "H16xx | message" for a rank that ended with a SperliException. A rank that ends the job at
     * its first call may do so before a slower rank has all its HELLOs: that rank's connect then gives H1612, which is
     * what its first call would have given.
     */
    public List<String> endings(Duration limit, Function<RankRuntime, String> body) {
        List<String> out = new ArrayList<>();
        for (Outcome<String> o : run(limit, rt -> body.apply(rt) + " | "
                + (rt.failure() == null ? "" : rt.failure().getMessage()))) {
            out.add(o.error() == null ? o.value() : o.error().code().name() + " | " + o.error().getMessage());
        }
        return out;
    }

    /**
     * Connects every rank, runs {@code body} on each in its own thread, closes every runtime and returns the outcomes
     * by rank. Bounded: a rank that does not finish within {@code limit} fails the test.
     */
    public <T> List<Outcome<T>> run(Duration limit, Function<RankRuntime, T> body) {
        ExecutorService pool = Executors.newFixedThreadPool(size);
        try {
            List<Future<Outcome<T>>> futures = new ArrayList<>();
            for (int r = 0; r < size; r++) {
                RankConfig config = config(r);
                futures.add(pool.submit(() -> {
                    RankRuntime runtime;
                    RankParts parts = RankParts.of(config);
                    try {
                        runtime = RankRuntime.connect(parts, phase -> { });
                    } catch (SperliException e) {
                        return new Outcome<T>(null, e);
                    }
                    PARTS.put(runtime, parts);
                    try (runtime) {
                        return new Outcome<>(body.apply(runtime), null);
                    } catch (SperliException e) {
                        return new Outcome<T>(null, e);
                    }
                }));
            }
            long deadline = System.nanoTime() + limit.toNanos();
            List<Outcome<T>> outcomes = new ArrayList<>();
            for (Future<Outcome<T>> f : futures) {
                outcomes.add(f.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
            }
            return outcomes;
        } catch (TimeoutException e) {
            throw new AssertionError("a rank did not finish within " + limit + "; log: " + log, e);
        } catch (Exception e) {
            throw new AssertionError(e);
        } finally {
            pool.shutdownNow();
        }
    }

    /** The parts of {@code runtime}, which {@link #run} connected: its frames, mailbox, links and drivers. */
    static RankParts parts(RankRuntime runtime) {
        RankParts parts = PARTS.get(runtime);
        if (parts == null) {
            throw new IllegalArgumentException("not a runtime that TestJob.run connected");
        }
        return parts;
    }

    /** Distinct free ports: all sockets stay open until every port is chosen, so none is handed out twice. */
    static int[] freePorts(int n) {
        ServerSocket[] sockets = new ServerSocket[n];
        try {
            int[] ports = new int[n];
            for (int i = 0; i < n; i++) {
                sockets[i] = new ServerSocket(0);
                ports[i] = sockets[i].getLocalPort();
            }
            return ports;
        } catch (IOException e) {
            throw new AssertionError(e);
        } finally {
            for (ServerSocket s : sockets) {
                if (s != null) {
                    try {
                        s.close();
                    } catch (IOException ignored) {
                        // closing a probe socket cannot lose anything
                    }
                }
            }
        }
    }
}
