package org.sperli.identity;

import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.sperli.crypto.CompositeSig;
import org.sperli.jobspec.JobDescription;
import org.sperli.jobspec.JoinToken;
import org.sperli.jobspec.JoinTokens;
import org.sperli.protocol.JobId;

/**
 * A real job for tests: a job id, a job CA valid from now, a CompositeSig job key, a host list, and on demand the
 * rank credentials, signed tokens and descriptions the launcher would make. Token expiry is given against the manual
 * clock {@link #NOW_MS}; certificates use the real clock because the JDK's TLS checks them against it.
 */
public final class TestJob {
    /** The manual clock of token tests: Unix time in milliseconds. */
    public static final long NOW_MS = 1_900_000_000_000L;
    /** A token expiry one minute after {@link #NOW_MS}. */
    public static final long EXPIRY_MS = NOW_MS + 60_000;
    public static final long INCARNATION = 1;
    public static final long SILENCE_MS = 5000;

    private static final SecureRandom RANDOM = new SecureRandom();

    public final JobId job;
    public final JobCa ca;
    public final CompositeSig.KeyPair jobKey;
    public final List<String> hosts;
    private final Map<Integer, RankCredentials> credentials = new HashMap<>();

    private TestJob(JobId job, JobCa ca, CompositeSig.KeyPair jobKey, List<String> hosts) {
        this.job = job;
        this.ca = ca;
        this.jobKey = jobKey;
        this.hosts = List.copyOf(hosts);
    }

    /** A job with one rank per host. */
    public static TestJob create(List<String> hosts) {
        JobId job = JobId.random(RANDOM);
        return new TestJob(job, JobCa.create(job, Instant.now(), RANDOM), CompositeSig.generate(RANDOM), hosts);
    }

    public int size() {
        return hosts.size();
    }

    /** The credentials of {@code rank} on its host, made once. */
    public synchronized RankCredentials credentials(int rank) {
        return credentials.computeIfAbsent(rank, r -> ca.issueRankCertificate(job, r, hosts.get(r), Instant.now()));
    }

    /** The unsigned token of {@code rank} with the given expiry. */
    public JoinToken unsignedToken(int rank, long expiryMs) {
        return JoinToken.unsigned(job, rank, size(), INCARNATION, expiryMs, hosts.get(rank));
    }

    /** The signed token bytes of {@code rank}, expiring at {@link #EXPIRY_MS}. */
    public byte[] token(int rank) {
        return JoinTokens.sign(unsignedToken(rank, EXPIRY_MS), jobKey.secretKey());
    }

    /** The parts of rank {@code rank}'s valid description, to be changed by a test and then built. */
    public Parts parts(int rank) {
        Parts p = new Parts();
        p.job = job;
        p.size = size();
        p.rank = rank;
        p.hosts = new ArrayList<>();
        for (int i = 0; i < size(); i++) {
            p.hosts.add(new JobDescription.HostEntry(hosts.get(i), 7000 + i));
        }
        p.caCertPem = ca.certificatePem();
        p.rankCertPem = credentials(rank).certificatePem();
        p.rankKeyPem = credentials(rank).privateKeyPem();
        p.token = token(rank);
        p.signingKey = rank == 0 ? jobKey.secretKey() : new byte[0];
        p.publicKey = jobKey.publicKey();
        return p;
    }

    /** The fields of a description, public so that a test changes exactly one. */
    public static final class Parts {
        public JobId job;
        public int size;
        public int rank;
        public List<JobDescription.HostEntry> hosts;
        public String caCertPem;
        public String rankCertPem;
        public String rankKeyPem;
        public byte[] token;
        public byte[] signingKey;
        public byte[] publicKey;

        public JobDescription build() {
            return new JobDescription(JobDescription.FORMAT_VERSION, job, size, rank, INCARNATION, SILENCE_MS, hosts,
                    caCertPem, rankCertPem, rankKeyPem, token, signingKey, publicKey);
        }
    }
}
