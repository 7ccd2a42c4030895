package org.sperli.identity;

import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.Objects;
import org.sperli.crypto.Pem;

/**
 * A rank's TLS identity: its Ed25519 certificate and private key. {@link #toString} never shows the key; the PEM text
 * of the key is a secret the launcher writes only into the rank's description and the rank only into its
 * {@link org.sperli.crypto.OwnerOnlyDirectory}.
 */
public record RankCredentials(X509Certificate certificate, PrivateKey privateKey) {
    public RankCredentials {
        Objects.requireNonNull(certificate, "certificate");
        Objects.requireNonNull(privateKey, "privateKey");
    }

    /** Parses the rank certificate and PKCS#8 key PEM texts of a description (IllegalArgumentException: malformed). */
    public static RankCredentials fromPem(String certificatePem, String privateKeyPem) {
        return new RankCredentials(Pem.parseCertificate(certificatePem), Pem.parseEd25519PrivateKey(privateKeyPem));
    }

    /** PEM text of the certificate. */
    public String certificatePem() {
        return Pem.certificate(certificate);
    }

    /** PKCS#8 PEM text of the private key: a secret. */
    public String privateKeyPem() {
        return Pem.privateKey(privateKey);
    }

    @Override
    public String toString() {
        return "RankCredentials[subject=" + certificate.getSubjectX500Principal().getName()
                + ", privateKey=(redacted)]";
    }
}
