package org.sperli.runtime;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.sperli.protocol.JobId;
import org.sperli.transport.TlsEngineFactory;

/**
 * Everything one rank needs to join its job's mesh.
 *
 * @param hosts          host and port of every rank, index = rank
 * @param ownToken       this rank's join token, sent in its HELLO
 * @param tokenVerifier  checks a peer's join token (H1614 on any refusal)
 * @param wallClockMs    the one wall clock (token expiry); elapsed time uses monotonic clocks
 * @param connectRetry   how long to keep dialing a higher rank (30 s in v1)
 * @param handshakeTimeout bound of one TLS handshake (10 s in v1)
 * @param setupTimeout   bound of the whole setup, all connections and HELLOs (45 s in v1)
 * @param log            where operator-facing notes go (never keys or tokens)
 * @param checkpoints    the checkpoint directory and job keys; {@code null}: checkpoints are off
 */
public record RankConfig(
        JobId jobId,
        int size,
        int rank,
        long incarnation,
        long silenceMs,
        List<PeerAddress> hosts,
        byte[] ownToken,
        TokenVerifier tokenVerifier,
        TlsEngineFactory tls,
        PeerCertificateCheck certificateCheck,
        LongSupplier wallClockMs,
        Duration connectRetry,
        Duration handshakeTimeout,
        Duration setupTimeout,
        Consumer<String> log,
        CheckpointSettings checkpoints) {

    public static final Duration CONNECT_RETRY = Duration.ofSeconds(30);
    public static final Duration RETRY_INTERVAL = Duration.ofMillis(100);
    public static final Duration HANDSHAKE_TIMEOUT = Duration.ofSeconds(10);
    public static final Duration SETUP_TIMEOUT = Duration.ofSeconds(45);

    public RankConfig {
        hosts = List.copyOf(hosts);
        if (hosts.size() != size) {
            throw new IllegalArgumentException("host list has " + hosts.size() + " entries for size " + size);
        }
    }

    /** This configuration with {@code checkpoints} ({@code null}: off). */
    public RankConfig withCheckpoints(CheckpointSettings checkpoints) {
        return new RankConfig(jobId, size, rank, incarnation, silenceMs, hosts, ownToken, tokenVerifier, tls,
                certificateCheck, wallClockMs, connectRetry, handshakeTimeout, setupTimeout, log, checkpoints);
    }

    /** The same rank with other setup bounds (tests and operators on slow networks). */
    public RankConfig withSetupBounds(Duration connectRetry, Duration handshakeTimeout, Duration setupTimeout) {
        return new RankConfig(jobId, size, rank, incarnation, silenceMs, hosts, ownToken, tokenVerifier, tls,
                certificateCheck, wallClockMs, connectRetry, handshakeTimeout, setupTimeout, log, checkpoints);
    }

    /** The port this rank listens at. */
    public int ownPort() {
        return hosts.get(rank).port();
    }

    /** Verifies a peer's join token. */
    @FunctionalInterface
    public interface TokenVerifier {
        /** Throws SperliException H1614 unless the token is valid for {@code peerRank}. */
        void verify(byte[] token, int peerRank, long nowEpochMs);
    }
}
