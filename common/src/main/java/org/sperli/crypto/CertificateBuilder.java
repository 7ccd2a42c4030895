package org.sperli.crypto;

import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import javax.security.auth.x500.X500Principal;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;

/**
 * Builds the Ed25519 certificates of a job: the self-signed job CA and the rank certificates it signs.
 *
 * <p>The DER is written field by field ({@link CertificateDer}: the bytes Bouncy Castle's certificate builder made
 * before, at a fraction of the cost). Bouncy Castle makes the Ed25519
 * signature with its lightweight API ({@link Ed25519ContentSigner}: deterministic by RFC 8032, several times faster
 * than the JDK 17 provider, and without the cost of setting up its JCA provider), or AWS-LC makes it for an issuer
 * given {@link AccpEd25519}, with the same result. The certificates handed out as {@link X509Certificate} are parsed
 * by the JDK's certificate factory, so they are exactly what the JDK's TLS stack will see. Keys come and go as JDK
 * keys. Subjects are a single CN; the caller decides the names and the validity.
 */
public final class CertificateBuilder {
    /** How the rank's host goes into the subject alternative name. */
    public enum HostKind {
        /** A DNS name: SAN dNSName. */
        DNS_NAME,
        /** A dotted IPv4 address: SAN iPAddress, never a dNSName. */
        IP_ADDRESS
    }

    /** Serial numbers: 128 random bits, positive (RFC 5280 allows up to 20 octets). */
    private static final int SERIAL_BITS = 128;

    private CertificateBuilder() {
    }

    /**
     * A self-signed CA certificate for {@code key}: basicConstraints CA with path length 0 (it signs rank certificates
     * only) and keyUsage keyCertSign, both critical.
     */
    public static X509Certificate selfSignedCa(String commonName, PublicKey publicKey, PrivateKey privateKey,
                                               Instant notBefore, Instant notAfter, SecureRandom random) {
        Ed25519ContentSigner signer;
        try {
            signer = new Ed25519ContentSigner(Ed25519ContentSigner.keyOf(privateKey), privateKey, null);
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("CA key: " + e.getMessage(), e);
        }
        return parse(CertificateDer.selfSignedCa(commonName, publicKey, serial(random),
                notBefore.truncatedTo(ChronoUnit.SECONDS), notAfter.truncatedTo(ChronoUnit.SECONDS), signer::sign));
    }

    /**
     * A leaf certificate signed by {@code issuer}: subject a single CN, one SAN entry for {@code host}, keyUsage
     * digitalSignature (critical), extendedKeyUsage serverAuth and clientAuth, basicConstraints not a CA (critical).
     */
    public static X509Certificate leaf(X509Certificate issuer, PrivateKey issuerKey, String commonName,
                                       PublicKey subjectKey, String host, HostKind hostKind,
                                       Instant notBefore, Instant notAfter, SecureRandom random) {
        return leaf(Issuer.of(issuer, issuerKey), commonName, subjectKey, host, hostKind, notBefore, notAfter, random);
    }

    /**
     * As {@link #leaf(X509Certificate, PrivateKey, String, PublicKey, String, HostKind, Instant, Instant,
     * SecureRandom)}, by an issuer read once for all the leaves it signs.
     */
    public static X509Certificate leaf(Issuer issuer, String commonName, PublicKey subjectKey, String host,
                                       HostKind hostKind, Instant notBefore, Instant notAfter, SecureRandom random) {
        return parse(leafDer(issuer, commonName, subjectKey, host, hostKind, notBefore, notAfter, random));
    }

    /**
     * The DER of the certificate {@link #leaf(Issuer, String, PublicKey, String, HostKind, Instant, Instant,
     * SecureRandom)} makes, not parsed: the launcher only passes it on ({@link CertificateDer}). Times are cut to the
     * second.
     */
    public static byte[] leafDer(Issuer issuer, String commonName, PublicKey subjectKey, String host,
                                 HostKind hostKind, Instant notBefore, Instant notAfter, SecureRandom random) {
        return CertificateDer.leaf(issuer, serial(random), commonName, subjectKey, host, hostKind,
                notBefore.truncatedTo(ChronoUnit.SECONDS), notAfter.truncatedTo(ChronoUnit.SECONDS));
    }

    /**
     * A CA read once for all the leaves it signs: its name, its key identifier (hashed from its key, as its own SKI
     * was) and its Ed25519 key with the public half derived, which every signature needs and each leaf would
     * otherwise derive again. Safe from any thread.
     */
    public static final class Issuer {
        private final X500Principal name;
        private final byte[] nameDer;
        private final byte[] authorityKeyIdExtensionDer;
        private final Ed25519PrivateKeyParameters key;
        private final PrivateKey jdkKey;
        private final AccpEd25519 accpOrNull;

        private Issuer(X509Certificate certificate, PrivateKey key, AccpEd25519 accpOrNull)
                throws GeneralSecurityException {
            this.name = certificate.getSubjectX500Principal();
            this.nameDer = name.getEncoded();
            this.authorityKeyIdExtensionDer = CertificateDer.authorityKeyIdExtension(certificate.getPublicKey());
            this.key = Ed25519ContentSigner.keyOf(key);
            this.key.generatePublicKey();
            this.jdkKey = key;
            this.accpOrNull = accpOrNull;
        }

        /** {@code certificate} and its Ed25519 {@code key} (IllegalArgumentException: not an Ed25519 key). */
        public static Issuer of(X509Certificate certificate, PrivateKey key) {
            return of(certificate, key, Optional.empty());
        }

        /** As {@link #of(X509Certificate, PrivateKey)}; every leaf is signed by {@code accp} where it is given. */
        public static Issuer of(X509Certificate certificate, PrivateKey key, Optional<AccpEd25519> accp) {
            try {
                return new Issuer(certificate, key, accp.orElse(null));
            } catch (GeneralSecurityException | IllegalArgumentException e) {
                throw new IllegalArgumentException("issuer key: " + e.getMessage(), e);
            }
        }

        /** The DER of the issuer's subject, the issuer field of every leaf. */
        byte[] nameDer() {
            return nameDer.clone();
        }

        /** The DER of the authorityKeyIdentifier extension (not critical) of every leaf. */
        byte[] authorityKeyIdExtensionDer() {
            return authorityKeyIdExtensionDer.clone();
        }

        /** The Ed25519 signature of a leaf's TBSCertificate. */
        byte[] sign(byte[] tbs) {
            return new Ed25519ContentSigner(key, jdkKey, accpOrNull).sign(tbs);
        }

        @Override
        public String toString() {
            return "CertificateBuilder.Issuer[" + name.getName() + ", key=(redacted)]";
        }
    }

    /** The certificate the JDK's TLS stack will see in {@code der}. */
    private static X509Certificate parse(byte[] der) {
        try {
            return (X509Certificate) CertificateFactory.getInstance("X.509")
                    .generateCertificate(new ByteArrayInputStream(der));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("certificate not built: " + e.getClass().getSimpleName(), e);
        }
    }

    private static BigInteger serial(SecureRandom random) {
        // A zero serial is not allowed; 2^-128 odds, but the loop costs nothing.
        BigInteger serial;
        do {
            serial = new BigInteger(SERIAL_BITS, random);
        } while (serial.signum() == 0);
        return serial;
    }
}
