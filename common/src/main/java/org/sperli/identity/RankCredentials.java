package org.sperli.identity;

import java.io.ByteArrayInputStream;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Objects;
import org.sperli.crypto.Pem;

/**
 * A rank's TLS identity: its Ed25519 certificate and private key. {@link #toString} never shows the key; the PEM text
 * of the key is a secret the launcher writes only into the rank's description and the rank only into its
 * {@link org.sperli.crypto.OwnerOnlyDirectory}.
 *
 * <p>Credentials the launcher issues hold the certificate's DER and parse it only when {@link #certificate} is asked
 * for: the launcher passes the PEM text on and never needs the parsed form, which cost it more than making the
 * certificate did. Safe from any thread.
 */
public final class RankCredentials {
    private final byte[] certificateDer;
    private final PrivateKey privateKey;
    private volatile X509Certificate certificate;

    private RankCredentials(byte[] certificateDer, X509Certificate certificate, PrivateKey privateKey) {
        this.certificateDer = certificateDer;
        this.certificate = certificate;
        this.privateKey = Objects.requireNonNull(privateKey, "privateKey");
    }

    /** A parsed certificate and its key. */
    public RankCredentials(X509Certificate certificate, PrivateKey privateKey) {
        this(encoded(certificate), certificate, privateKey);
    }

    /** A certificate's DER, which it keeps (the caller hands it over), parsed when first asked for, and its key. */
    static RankCredentials issued(byte[] certificateDer, PrivateKey privateKey) {
        return new RankCredentials(certificateDer, null, privateKey);
    }

    /** Parses the rank certificate and PKCS#8 key PEM texts of a description (IllegalArgumentException: malformed). */
    public static RankCredentials fromPem(String certificatePem, String privateKeyPem) {
        return new RankCredentials(Pem.parseCertificate(certificatePem), Pem.parseEd25519PrivateKey(privateKeyPem));
    }

    /** The certificate, as the JDK's TLS stack reads it. */
    public X509Certificate certificate() {
        X509Certificate parsed = certificate;
        if (parsed == null) {
            try {
                parsed = (X509Certificate) CertificateFactory.getInstance("X.509")
                        .generateCertificate(new ByteArrayInputStream(certificateDer));
            } catch (CertificateException e) {
                throw new IllegalStateException("issued certificate does not parse: " + e.getMessage(), e);
            }
            certificate = parsed;
        }
        return parsed;
    }

    /** The Ed25519 private key: a secret. */
    public PrivateKey privateKey() {
        return privateKey;
    }

    /** PEM text of the certificate. */
    public String certificatePem() {
        return Pem.encode(Pem.CERTIFICATE, certificateDer);
    }

    /** PKCS#8 PEM text of the private key: a secret. */
    public String privateKeyPem() {
        return Pem.privateKey(privateKey);
    }

    private static byte[] encoded(X509Certificate certificate) {
        Objects.requireNonNull(certificate, "certificate");
        try {
            return certificate.getEncoded();
        } catch (CertificateException e) {
            throw new IllegalArgumentException("certificate does not encode", e);
        }
    }

    @Override
    public String toString() {
        return "RankCredentials[subject=" + certificate().getSubjectX500Principal().getName()
                + ", privateKey=(redacted)]";
    }
}
