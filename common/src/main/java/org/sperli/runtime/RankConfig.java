package org.sperli.runtime;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.sperli.jvm.Clock;
import org.sperli.protocol.JobId;
import org.sperli.transport.TlsEngineFactory;

/**
 * Everything one rank needs to join its job's mesh.
 *
 * @param hosts          host and port of every rank, index = rank
 * @param ownToken       this rank's join token, sent in its HELLO
 * @param tokenVerifier  checks a peer's join token (H1614 on any refusal)
 * @param clock          the rank's one clock: every timer, deadline and timestamp of the rank reads it, the token
 *                       expiry its wall time
 * @param setupStall     how long the setup may go without progress (no handshake finished, no HELLO checked) before
 *                       it fails with H1613 (30 s; protocol section 5)
 * @param handshakeTimeout bound of one TLS handshake (120 s)
 * @param log            where operator-facing notes go (never keys or tokens)
 * @param checkpoints    the checkpoint directory and job keys; {@code null}: checkpoints are off
 * @param collectives    the shape this rank offers: MESH announces feature bit 1 in its HELLO, STAR does not (the
 *                       job then runs the v1 star); the job's shape is decided by every rank's HELLO
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
        Clock clock,
        Duration setupStall,
        Duration handshakeTimeout,
        Consumer<String> log,
        CheckpointSettings checkpoints,
        CollectiveShape collectives) {

    /** The setup fails after this long without progress. */
    public static final Duration SETUP_STALL = Duration.ofSeconds(30);
    /** The longest pause between two connects to a peer that does not listen yet. */
    public static final Duration RETRY_INTERVAL = Duration.ofMillis(100);
    /**
     * Bound of one TLS handshake: as long as the setup's bound before its first progress. With many ranks on few
     * cores a rank that starts listening late is handed the handshakes of every lower rank at once, in a JVM that has
     * not yet compiled them, and a bound as short as the stall bound timed its own side of those handshakes out
     * although every one was progressing (see docs/performance.md, section 5).
     */
    public static final Duration HANDSHAKE_TIMEOUT = SETUP_STALL.multipliedBy(4);

    /** A rank that offers the mesh collectives, the default. */
    public RankConfig(JobId jobId, int size, int rank, long incarnation, long silenceMs, List<PeerAddress> hosts,
                      byte[] ownToken, TokenVerifier tokenVerifier, TlsEngineFactory tls,
                      PeerCertificateCheck certificateCheck, Clock clock, Duration setupStall,
                      Duration handshakeTimeout, Consumer<String> log, CheckpointSettings checkpoints) {
        this(jobId, size, rank, incarnation, silenceMs, hosts, ownToken, tokenVerifier, tls, certificateCheck, clock,
                setupStall, handshakeTimeout, log, checkpoints, CollectiveShape.MESH);
    }

    public RankConfig {
        hosts = List.copyOf(hosts);
        if (collectives == null) {
            throw new IllegalArgumentException("collectives=null");
        }
        if (hosts.size() != size) {
            throw new IllegalArgumentException("host list has " + hosts.size() + " entries for size " + size);
        }
    }

    /** This configuration with {@code checkpoints} ({@code null}: off). */
    public RankConfig withCheckpoints(CheckpointSettings checkpoints) {
        return new RankConfig(jobId, size, rank, incarnation, silenceMs, hosts, ownToken, tokenVerifier, tls,
                certificateCheck, clock, setupStall, handshakeTimeout, log, checkpoints, collectives);
    }

    /** This configuration offering {@code shape} in its HELLO. */
    public RankConfig withCollectives(CollectiveShape shape) {
        return new RankConfig(jobId, size, rank, incarnation, silenceMs, hosts, ownToken, tokenVerifier, tls,
                certificateCheck, clock, setupStall, handshakeTimeout, log, checkpoints, shape);
    }

    /** The same rank with other setup bounds (tests and operators on slow networks). */
    public RankConfig withSetupBounds(Duration setupStall, Duration handshakeTimeout) {
        return new RankConfig(jobId, size, rank, incarnation, silenceMs, hosts, ownToken, tokenVerifier, tls,
                certificateCheck, clock, setupStall, handshakeTimeout, log, checkpoints, collectives);
    }

    /** The port this rank listens at. */
    public int ownPort() {
        return hosts.get(rank).port();
    }

    /** How many ranks of the job, this one included, the host list puts on this rank's machine. */
    public int ranksOnOwnMachine() {
        PeerAddress own = hosts.get(rank);
        return (int) hosts.stream().filter(own::sameMachineAs).count();
    }

    /** Verifies a peer's join token. */
    @FunctionalInterface
    public interface TokenVerifier {
        /** Throws SperliException H1614 unless the token is valid for {@code peerRank}. */
        void verify(byte[] token, int peerRank, long nowEpochMs);
    }
}
