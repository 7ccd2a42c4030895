package org.sperli.identity;

import java.security.KeyPair;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.Optional;
import org.sperli.crypto.AccpEd25519;
import org.sperli.crypto.CertificateBuilder;
import org.sperli.crypto.Ed25519Keys;
import org.sperli.crypto.Pem;
import org.sperli.jobspec.HostSyntax;
import org.sperli.protocol.JobId;

/**
 * The CA of one job: an Ed25519 key with a self-signed certificate, made by the launcher, which issues one Ed25519
 * certificate per rank (and new ones at each restart, under the same CA). Its key never leaves the launcher.
 *
 * <p>Validity: the CA runs from {@code now - }{@link #CLOCK_SKEW} to {@code now + lifetime} (back-dated so that a host
 * whose clock is a little behind still accepts it), and every rank certificate must lie inside it. Certificate times
 * are whole seconds, so all instants are cut to the second before they are compared or written. Safe from any thread.
 */
public final class JobCa {
    /** The job lifetime when the launcher names none: a week, after which a job has to be started anew. */
    public static final Duration DEFAULT_LIFETIME = Duration.ofDays(7);
    /** How far certificates are back-dated for hosts whose clocks lag the launcher's. */
    public static final Duration CLOCK_SKEW = Duration.ofMinutes(5);
    /** Start of the CA's common name; the job id hex follows. Cannot be mistaken for a rank name. */
    public static final String CA_NAME_PREFIX = "sperli-ca-";

    private final JobId job;
    private final CertificateBuilder.Issuer issuer;
    private final X509Certificate certificate;
    private final SecureRandom random;
    private final Optional<AccpEd25519> accp;

    private JobCa(JobId job, CertificateBuilder.Issuer issuer, X509Certificate certificate, SecureRandom random,
                  Optional<AccpEd25519> accp) {
        this.job = job;
        this.issuer = issuer;
        this.certificate = certificate;
        this.random = random;
        this.accp = accp;
    }

    /** A new CA for {@code job}, valid from {@code now - CLOCK_SKEW} for {@link #DEFAULT_LIFETIME}. */
    public static JobCa create(JobId job, Instant now, SecureRandom random) {
        return create(job, now, DEFAULT_LIFETIME, random);
    }

    /** A new CA for {@code job}, valid from {@code now - CLOCK_SKEW} to {@code now + lifetime}. */
    public static JobCa create(JobId job, Instant now, Duration lifetime, SecureRandom random) {
        return create(job, now, lifetime, random, Optional.empty());
    }

    /**
     * As {@link #create(JobId, Instant, Duration, SecureRandom)}; where {@code accp} is given, the rank keys are
     * generated and the rank certificates signed by AWS-LC (a launcher with many ranks), the certificates and keys
     * being the same in form.
     */
    public static JobCa create(JobId job, Instant now, Duration lifetime, SecureRandom random,
                               Optional<AccpEd25519> accp) {
        Objects.requireNonNull(job, "job");
        if (job.isAllZero()) {
            throw new IllegalArgumentException("job id is all zero, which is never a job");
        }
        if (lifetime.isNegative() || lifetime.isZero()) {
            throw new IllegalArgumentException("lifetime=" + lifetime + ", expected positive");
        }
        KeyPair pair = Ed25519Keys.generate(random);
        Instant notBefore = now.minus(CLOCK_SKEW).truncatedTo(ChronoUnit.SECONDS);
        Instant notAfter = now.plus(lifetime).truncatedTo(ChronoUnit.SECONDS);
        X509Certificate certificate = CertificateBuilder.selfSignedCa(CA_NAME_PREFIX + job.hex(), pair.getPublic(),
                pair.getPrivate(), notBefore, notAfter, random);
        return new JobCa(job, CertificateBuilder.Issuer.of(certificate, pair.getPrivate(), accp), certificate, random,
                accp);
    }

    /**
     * A new Ed25519 key and certificate for rank {@code rank} on {@code host}, valid from {@code now - CLOCK_SKEW}
     * until the CA expires.
     */
    public RankCredentials issueRankCertificate(JobId job, int rank, String host, Instant now) {
        return issueRankCertificate(job, rank, host, now.minus(CLOCK_SKEW), notAfter());
    }

    /**
     * A new Ed25519 key and certificate for rank {@code rank} of {@code job} (which must be this CA's job) on
     * {@code host}, a host in the strict v1 syntax: subject CN {@code sperli-<job id hex>-<rank>}, SAN the host as an
     * iPAddress when it is a dotted IPv4 address and as a dNSName otherwise, extended key usage serverAuth and
     * clientAuth. The validity must lie inside the CA's.
     */
    public RankCredentials issueRankCertificate(JobId job, int rank, String host, Instant notBefore,
                                                Instant notAfter) {
        if (!this.job.equals(job)) {
            throw new IllegalArgumentException("job=" + job + ", this CA is for job " + this.job);
        }
        String fault = HostSyntax.check(host);
        if (fault != null) {
            throw new IllegalArgumentException(fault);
        }
        Instant from = notBefore.truncatedTo(ChronoUnit.SECONDS);
        Instant until = notAfter.truncatedTo(ChronoUnit.SECONDS);
        if (!from.isBefore(until) || from.isBefore(notBefore()) || until.isAfter(notAfter())) {
            throw new IllegalArgumentException("rank certificate validity " + from + ".." + until
                    + ", expected a non-empty period inside the CA's " + notBefore() + ".." + notAfter());
        }
        String commonName = PeerIdentity.commonName(job, rank);
        KeyPair pair = Ed25519Keys.generate(random, accp);
        CertificateBuilder.HostKind kind = HostSyntax.isIpv4(host)
                ? CertificateBuilder.HostKind.IP_ADDRESS : CertificateBuilder.HostKind.DNS_NAME;
        byte[] rankCertificate = CertificateBuilder.leafDer(issuer, commonName, pair.getPublic(), host, kind,
                from, until, random);
        return RankCredentials.issued(rankCertificate, pair.getPrivate());
    }

    /** The job this CA serves. */
    public JobId job() {
        return job;
    }

    /** The self-signed CA certificate, the only trust anchor of every rank of the job. */
    public X509Certificate certificate() {
        return certificate;
    }

    /** PEM text of the CA certificate, as it goes into every description. */
    public String certificatePem() {
        return Pem.certificate(certificate);
    }

    /** Start of the CA's validity. */
    public Instant notBefore() {
        return certificate.getNotBefore().toInstant();
    }

    /** End of the CA's validity: the job cannot run past it. */
    public Instant notAfter() {
        return certificate.getNotAfter().toInstant();
    }

    @Override
    public String toString() {
        return "JobCa[job=" + job + ", valid " + notBefore() + ".." + notAfter() + ", key=(redacted)]";
    }
}
