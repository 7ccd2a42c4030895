package org.sperli.identity;

import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.IntStream;
import org.sperli.crypto.AccpEd25519;
import org.sperli.crypto.CompositeSig;
import org.sperli.jobspec.DescriptionLine;
import org.sperli.jobspec.EncodedHostList;
import org.sperli.jobspec.JobDescription;
import org.sperli.jobspec.JoinToken;
import org.sperli.jobspec.JoinTokens;
import org.sperli.protocol.JobId;
import org.sperli.protocol.Limits;

/**
 * The launcher's side of a job's identity: the job id, the job CA and the CompositeSig job key, made once per job and
 * kept across restarts, and per rank and incarnation a fresh rank certificate, join token and job description.
 *
 * <p>The descriptions exist only in memory: the launcher writes each to its rank's standard input and nowhere else.
 * {@link #toString} shows no secret.
 */
public final class JobKit {
    /** How long a join token stays valid after it is made: long enough for a slow start over SSH. */
    public static final Duration TOKEN_LIFETIME = Duration.ofMinutes(10);
    /** Validity of the job CA and rank certificates a launcher makes: longer than any job should run, restarts too. */
    public static final Duration JOB_LIFETIME = Duration.ofDays(30);
    /**
     * From this size on the job's tokens and rank certificates are signed, and the rank keys generated, by AWS-LC
     * where it loads: its start costs the launcher a fixed time, and it saves some time per rank in the launcher's
     * C1-only JVM, so it pays from about this size on (see docs/performance.md, section 3.6).
     */
    static final int NATIVE_SIGNING_FROM = 512;

    private final JobId job;
    private final JobCa ca;
    private final CompositeSig.KeyPair jobKey;
    private final CompositeSig.Signer jobSigner;
    private final List<JobDescription.HostEntry> hosts;
    private final long silenceMs;
    private final SecureRandom random;

    private JobKit(JobId job, JobCa ca, CompositeSig.KeyPair jobKey, CompositeSig.Signer jobSigner,
                   List<JobDescription.HostEntry> hosts, long silenceMs, SecureRandom random) {
        this.job = job;
        this.ca = ca;
        this.jobKey = jobKey;
        this.jobSigner = jobSigner;
        this.hosts = hosts;
        this.silenceMs = silenceMs;
        this.random = random;
    }

    /**
     * A new job over these host-list entries (index = rank); the hosts must already be normalized and allowed.
     *
     * @param lifetime how long the job CA and rank certificates stay valid
     */
    public static JobKit create(List<JobDescription.HostEntry> hosts, long silenceMs, Duration lifetime,
                                Instant now, SecureRandom random) {
        if (hosts.size() < Limits.MIN_SIZE || hosts.size() > Limits.MAX_SIZE) {
            throw new IllegalArgumentException("size=" + hosts.size() + ", allowed 1..4096");
        }
        if (silenceMs < Limits.MIN_SILENCE_MS || silenceMs > Limits.MAX_SILENCE_MS) {
            throw new IllegalArgumentException("silence=" + silenceMs + " ms, allowed 2000..3600000");
        }
        JobId job = JobId.random(random);
        CompositeSig.KeyPair jobKey = CompositeSig.generate(random);
        byte[] secretKey = jobKey.secretKey();
        boolean nativeSigning = hosts.size() >= NATIVE_SIGNING_FROM;
        Optional<AccpEd25519> accp = nativeSigning ? AccpEd25519.load() : Optional.empty();
        try {
            return new JobKit(job, JobCa.create(job, now, lifetime, random, accp), jobKey,
                    CompositeSig.signer(secretKey, nativeSigning), List.copyOf(hosts), silenceMs, random);
        } finally {
            Arrays.fill(secretKey, (byte) 0);
        }
    }

    public JobId job() {
        return job;
    }

    public int size() {
        return hosts.size();
    }

    public List<JobDescription.HostEntry> hosts() {
        return hosts;
    }

    /** Whether AWS-LC signs the ML-DSA half of this job's tokens ({@link #NATIVE_SIGNING_FROM}). */
    boolean signsMlDsaNatively() {
        return jobSigner.mlDsaIsNative();
    }

    /** The job public key (1344 bytes), which verifies tokens and COMMIT files. */
    public byte[] jobPublicKey() {
        return jobKey.publicKey();
    }

    /** The same kit with one rank moved to another host-list entry (a restart after an unreachable host). */
    public JobKit withHost(int rank, JobDescription.HostEntry entry) {
        List<JobDescription.HostEntry> moved = new java.util.ArrayList<>(hosts);
        moved.set(rank, Objects.requireNonNull(entry));
        return new JobKit(job, ca, jobKey, jobSigner, List.copyOf(moved), silenceMs, random);
    }

    /**
     * The description of {@code rank} at {@code incarnation}: a new rank certificate and a new token, the job CA and
     * key of the job; rank 0 also gets the job signing key.
     */
    public JobDescription description(int rank, long incarnation, Instant now) {
        Objects.checkIndex(rank, hosts.size());
        String host = hosts.get(rank).host();
        RankCredentials credentials = ca.issueRankCertificate(job, rank, host, now);
        JoinToken unsigned = JoinToken.unsigned(job, rank, hosts.size(), incarnation,
                now.plus(TOKEN_LIFETIME).toEpochMilli(), host);
        byte[] token = JoinTokens.sign(unsigned, jobSigner);
        byte[] signingKey = rank == 0 ? jobKey.secretKey() : new byte[0];
        try {
            return new JobDescription(JobDescription.FORMAT_VERSION, job, hosts.size(), rank, incarnation, silenceMs,
                    hosts, ca.certificatePem(), credentials.certificatePem(), credentials.privateKeyPem(), token,
                    signingKey, jobKey.publicKey());
        } finally {
            // The description holds its own copy.
            Arrays.fill(signingKey, (byte) 0);
        }
    }

    /**
     * Every rank's description at {@code incarnation} as the line its rank reads on stdin, made on all cores: the
     * certificates and the CompositeSig tokens are most of a launch's own work (seconds at 4096 ranks on one core; see
     * docs/performance.md, section 3.6), and each rank's is independent of the others'. The lines share one encoding of
     * the host list. The descriptions' secrets are wiped once encoded; the caller wipes the lines once they are
     * written.
     */
    public DescriptionLine[] lines(long incarnation, Instant now) {
        EncodedHostList encodedHosts = EncodedHostList.of(hosts);
        return IntStream.range(0, hosts.size()).parallel().mapToObj(rank -> {
            JobDescription description = description(rank, incarnation, now);
            try {
                return description.toLine(encodedHosts);
            } finally {
                description.destroySecrets();
            }
        }).toArray(DescriptionLine[]::new);
    }

    @Override
    public String toString() {
        return "JobKit[job=" + job + ", size=" + hosts.size() + "]";
    }
}
