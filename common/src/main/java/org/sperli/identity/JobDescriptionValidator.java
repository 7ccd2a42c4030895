package org.sperli.identity;

import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.security.interfaces.EdECPublicKey;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.crypto.CompositeSig;
import org.sperli.crypto.Pem;
import org.sperli.jobspec.JobDescription;
import org.sperli.jobspec.JoinToken;
import org.sperli.jobspec.RefusedHostPolicy;

/**
 * The checks of a job description that need cryptography, a clock or the environment (tables section 7), run after
 * the structural parse of {@link JobDescription}, in field order, the first fault refusing the description:
 *
 * <ol>
 *   <li>the job CA certificate PEM parses and is an Ed25519 CA;</li>
 *   <li>the rank certificate PEM and the rank key PEM parse; the certificate is Ed25519, signed by the job CA, named
 *   for this job and rank, and holds the public key of the rank key;</li>
 *   <li>the join token's signature verifies under the job public key, and it has not expired on this rank's clock
 *   (an expiry equal to now has expired);</li>
 *   <li>at rank 0, the job signing key is the secret key of the job public key;</li>
 * </ol>
 *
 * all H1616; then every host-list entry against the refused-host policy, H1615. A description whose structure is
 * faulty is refused first (H1616), so any {@link JobDescription} may be passed, parsed or not.
 */
public final class JobDescriptionValidator {
    private static final String ED25519 = "Ed25519";

    private JobDescriptionValidator() {
    }

    /** Validates {@code description} at {@code nowEpochMs} (Unix time in milliseconds) under {@code policy}. */
    public static ValidatedDescription validate(JobDescription description, RefusedHostPolicy policy,
                                                long nowEpochMs) {
        String fault = description.structuralFault();
        if (fault != null) {
            throw refuse(fault);
        }
        X509Certificate ca = parseCa(description.caCertPem());
        X509Certificate rankCertificate = parse("rank certificate PEM",
                () -> Pem.parseCertificate(description.rankCertPem()));
        PrivateKey rankKey = parse("rank key PEM", () -> Pem.parseEd25519PrivateKey(description.rankKeyPem()));
        try {
            RankIdentity.checkRankCertificate(ca, rankCertificate, rankKey, description.jobId(), description.rank());
        } catch (SperliException e) {
            throw refuse("rank certificate: " + e.reason());
        }
        JoinToken token = description.joinToken();
        byte[] jobPublicKey = description.jobPublicKey();
        if (!CompositeSig.verify(jobPublicKey, token.signedPart(), token.signature(), CompositeSig.CONTEXT_JOIN)) {
            throw refuse("token signature does not verify under the job public key");
        }
        if (Long.compareUnsigned(token.expiryMs(), nowEpochMs) <= 0) {
            throw refuse("token expiryMs=" + Long.toUnsignedString(token.expiryMs()) + ", expected later than now="
                    + nowEpochMs);
        }
        if (description.holdsSigningKey()) {
            checkSigningKey(description, jobPublicKey);
        }
        List<JobDescription.HostEntry> hosts = description.hosts();
        for (int rank = 0; rank < hosts.size(); rank++) {
            Optional<String> refusal = policy.refusal(hosts.get(rank).host());
            if (refusal.isPresent()) {
                throw new SperliException(ErrorCode.H1615, "host list entry of rank " + rank + ": " + refusal.get());
            }
        }
        return new ValidatedDescription(description, ca, new RankCredentials(rankCertificate, rankKey), token);
    }

    private static X509Certificate parseCa(String pem) {
        X509Certificate ca = parse("CA certificate PEM", () -> Pem.parseCertificate(pem));
        if (!(ca.getPublicKey() instanceof EdECPublicKey edec)
                || !ED25519.equalsIgnoreCase(edec.getParams().getName())) {
            throw refuse("CA certificate key algorithm=" + ca.getPublicKey().getAlgorithm() + ", expected " + ED25519);
        }
        if (ca.getBasicConstraints() < 0) {
            throw refuse("CA certificate is not a CA (basicConstraints cA is not set)");
        }
        return ca;
    }

    private static void checkSigningKey(JobDescription description, byte[] jobPublicKey) {
        byte[] signingKey = description.jobSigningKey();
        try {
            if (!Arrays.equals(CompositeSig.publicKeyOf(signingKey), jobPublicKey)) {
                throw refuse("job signing key at rank 0 is not the secret key of the job public key");
            }
        } finally {
            Arrays.fill(signingKey, (byte) 0);
        }
    }

    private static <T> T parse(String field, Supplier<T> step) {
        try {
            return step.get();
        } catch (IllegalArgumentException e) {
            // Pem's messages name the rule and never quote the text, so they are safe to pass on.
            throw refuse(field + ": " + e.getMessage());
        }
    }

    private static SperliException refuse(String reason) {
        return new SperliException(ErrorCode.H1616, reason);
    }

    /**
     * A description that passed every check, with what the checks parsed: the job CA, the rank's TLS credentials and
     * its join token. {@link #toString} shows no secret.
     */
    public record ValidatedDescription(JobDescription description, X509Certificate jobCa,
                                       RankCredentials credentials, JoinToken token) {
        @Override
        public String toString() {
            return "ValidatedDescription[" + description + ", " + credentials + "]";
        }
    }
}
