package org.sperli.identity;

import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.security.interfaces.EdECPrivateKey;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.crypto.Ed25519Checks;
import org.sperli.protocol.JobId;

/**
 * The check a rank makes of its own TLS identity from its description: the rank certificate is Ed25519, signed by the
 * job CA, named for this job and rank, and its key is the private key beside it. Refusals carry H1611 (a certificate
 * identity fault); the description validator turns them into H1616, the code of a refused description.
 */
public final class RankIdentity {
    private static final String ED25519 = "Ed25519";

    private RankIdentity() {
    }

    /** Refuses (H1611) a rank certificate and key that are not rank {@code rank}'s of {@code job} under {@code ca}. */
    public static void checkRankCertificate(X509Certificate ca, X509Certificate rankCertificate, PrivateKey key,
                                            JobId job, int rank) {
        PeerIdentity.requireEd25519(rankCertificate);
        checkSignedBy(ca, rankCertificate);
        int named = PeerIdentity.rankOf(rankCertificate, job, Integer.MAX_VALUE);
        if (named != rank) {
            throw refuse("rank certificate names rank=" + named + ", expected " + rank);
        }
        checkKeyMatches(rankCertificate, key);
    }

    private static void checkSignedBy(X509Certificate ca, X509Certificate rankCertificate) {
        String issuer = rankCertificate.getIssuerX500Principal().getName();
        if (!rankCertificate.getIssuerX500Principal().equals(ca.getSubjectX500Principal())) {
            throw refuse("rank certificate issuer=" + PeerIdentity.shown(issuer) + ", expected the job CA "
                    + PeerIdentity.shown(ca.getSubjectX500Principal().getName()));
        }
        if (!Ed25519Checks.signedBy(rankCertificate, ca.getPublicKey())) {
            throw refuse("rank certificate is not signed by the job CA");
        }
    }

    private static void checkKeyMatches(X509Certificate rankCertificate, PrivateKey key) {
        if (!(key instanceof EdECPrivateKey edec) || !ED25519.equalsIgnoreCase(edec.getParams().getName())) {
            throw refuse("rank private key algorithm=" + key.getAlgorithm() + ", expected " + ED25519);
        }
        if (!Ed25519Checks.pairOf(key, rankCertificate.getPublicKey())) {
            throw refuse("rank private key does not match the rank certificate's public key");
        }
    }

    private static SperliException refuse(String reason) {
        return new SperliException(ErrorCode.H1611, reason);
    }
}
