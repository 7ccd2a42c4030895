package org.sperli.crypto;

import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.DERUTF8String;
import org.bouncycastle.asn1.x500.RDN;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Certificates the job CA would never issue, for tests of the checks that refuse them: any RFC 4514 subject, any SAN
 * list, any key type. Test code only; Bouncy Castle stays in this package here too.
 */
public final class OddCertificates {
    private OddCertificates() {
    }

    /** A fresh key pair of {@code algorithm} ("Ed25519", "EC", ...) from the JDK. */
    public static KeyPair keyPair(String algorithm) {
        try {
            return KeyPairGenerator.getInstance(algorithm).generateKeyPair();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A leaf signed by {@code issuer}, valid now for an hour either way, with the given subject and SAN entries. */
    public static X509Certificate leaf(X509Certificate issuer, PrivateKey issuerKey, String subject,
                                       PublicKey subjectKey, List<String> dnsNames, List<String> ipAddresses) {
        return leaf(issuer, issuerKey, new X500Name(subject), subjectKey, dnsNames, ipAddresses);
    }

    private static X509Certificate leaf(X509Certificate issuer, PrivateKey issuerKey, X500Name subject,
                                        PublicKey subjectKey, List<String> dnsNames, List<String> ipAddresses) {
        try {
            List<GeneralName> names = new ArrayList<>();
            dnsNames.forEach(n -> names.add(new GeneralName(GeneralName.dNSName, n)));
            ipAddresses.forEach(n -> names.add(new GeneralName(GeneralName.iPAddress, n)));
            Instant now = Instant.now();
            JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(issuer,
                    BigInteger.valueOf(now.toEpochMilli()),
                    Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(Duration.ofHours(1))),
                    subject, subjectKey);
            if (!names.isEmpty()) {
                builder.addExtension(Extension.subjectAlternativeName, false,
                        new GeneralNames(names.toArray(new GeneralName[0])));
            }
            return parse(builder.build(new JcaContentSignerBuilder(algorithmFor(issuerKey)).build(issuerKey))
                    .getEncoded());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A leaf whose subject is one CN holding exactly {@code commonName} (spaces, commas and all). */
    public static X509Certificate leafWithCommonName(X509Certificate issuer, PrivateKey issuerKey, String commonName,
                                                     PublicKey subjectKey) {
        X500Name subject = new X500Name(new RDN[] {new RDN(BCStyle.CN, new DERUTF8String(commonName))});
        return leaf(issuer, issuerKey, subject, subjectKey, List.of("a.example"), List.of());
    }

    /** A self-signed CA certificate of any key type ("EC" gives an ECDSA CA). */
    public static X509Certificate selfSignedCa(String subject, KeyPair pair) {
        try {
            Instant now = Instant.now();
            X500Name name = new X500Name(subject);
            JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(name, BigInteger.ONE,
                    Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(Duration.ofHours(1))), name,
                    pair.getPublic());
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(0));
            return parse(builder.build(new JcaContentSignerBuilder(algorithmFor(pair.getPrivate()))
                    .build(pair.getPrivate())).getEncoded());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String algorithmFor(PrivateKey key) {
        return key.getAlgorithm().equals("EC") ? "SHA256withECDSA" : "Ed25519";
    }

    private static X509Certificate parse(byte[] der) throws Exception {
        return (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(der));
    }
}
