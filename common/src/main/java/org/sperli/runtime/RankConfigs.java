package org.sperli.runtime;

import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.sperli.identity.JobDescriptionValidator.ValidatedDescription;
import org.sperli.identity.PeerIdentity;
import org.sperli.identity.TlsContexts;
import org.sperli.jobspec.JobDescription;
import org.sperli.jobspec.JoinTokens;
import org.sperli.jvm.Clock;
import org.sperli.protocol.JobId;
import org.sperli.transport.JdkTlsEngineFactory;

/** Builds a rank's {@link RankConfig} from its validated job description, with the v1 timers. */
public final class RankConfigs {
    private RankConfigs() {
    }

    /**
     * The configuration of the rank the description is for, on {@code clock}; with {@code checkpointDirOrNull}
     * checkpoints are on, with the job public key of the description and, at rank 0, its job signing key (a copy: the
     * description may wipe its own).
     */
    public static RankConfig fromDescription(ValidatedDescription validated, Path checkpointDirOrNull,
                                             Consumer<String> log, Clock clock) {
        return fromDescription(validated, checkpointDirOrNull, null, log, clock);
    }

    /**
     * As {@link #fromDescription(ValidatedDescription, Path, Consumer, Clock)}, with a checkpoint wait limit (null:
     * the default).
     */
    public static RankConfig fromDescription(ValidatedDescription validated, Path checkpointDirOrNull,
                                             Duration checkpointWaitOrNull, Consumer<String> log, Clock clock) {
        JobDescription d = validated.description();
        JobId job = d.jobId();
        int size = d.size();
        long incarnation = d.incarnation();
        List<PeerAddress> hosts = d.hosts().stream().map(h -> new PeerAddress(h.host(), h.port())).toList();
        byte[] jobPublicKey = d.jobPublicKey();
        CheckpointSettings checkpoints = checkpointDirOrNull == null ? null : new CheckpointSettings(
                checkpointDirOrNull, jobPublicKey, d.holdsSigningKey() ? d.jobSigningKey() : null,
                checkpointWaitOrNull != null ? checkpointWaitOrNull : CheckpointSettings.DEFAULT_WAIT_LIMIT);
        return new RankConfig(job, size, d.rank(), incarnation, d.silenceMs(), hosts, d.token(),
                (token, peer, now) -> JoinTokens.verify(token, jobPublicKey, job, peer, peer, size, incarnation,
                        hosts.get(peer).host(), now),
                new JdkTlsEngineFactory(TlsContexts.create(job, size, validated.jobCa(), validated.credentials())),
                certificateCheck(job, size),
                clock, RankConfig.SETUP_STALL, RankConfig.HANDSHAKE_TIMEOUT, log, checkpoints);
    }

    /** The post-handshake identity checks of {@link PeerIdentity} for this job. */
    public static PeerCertificateCheck certificateCheck(JobId job, int size) {
        return new PeerCertificateCheck() {
            @Override
            public int rankOf(X509Certificate peer) {
                return PeerIdentity.rankOf(peer, job, size);
            }

            @Override
            public void checkDialedHost(X509Certificate server, String dialedHost) {
                PeerIdentity.checkSan(server, dialedHost);
            }
        };
    }
}
