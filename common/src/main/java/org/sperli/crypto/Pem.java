package org.sperli.crypto;

import java.io.ByteArrayInputStream;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Arrays;
import java.util.Base64;

/**
 * PEM text (RFC 7468) of the job description: {@value #CERTIFICATE} for the job CA and rank certificates,
 * {@value #PRIVATE_KEY} (PKCS#8) for the rank's Ed25519 key.
 *
 * <p>Decoding is strict: exactly one block of the expected label, standard base64 (line breaks and blanks inside the
 * block are allowed, nothing else), and nothing but white space around it. Every fault is an
 * {@link IllegalArgumentException} whose message starts with "PEM malformed" and names the rule; it never quotes the
 * text, which may hold a key. Keys and certificates are parsed by the JDK's own providers, so what comes out is what
 * the JDK's TLS stack uses.
 */
public final class Pem {
    /** Label of an X.509 certificate. */
    public static final String CERTIFICATE = "CERTIFICATE";
    /** Label of an unencrypted PKCS#8 private key. */
    public static final String PRIVATE_KEY = "PRIVATE KEY";

    private static final int LINE_LENGTH = 64;
    private static final String ED25519 = "Ed25519";

    private Pem() {
    }

    /** PEM text of {@code der} under {@code label}: 64 base64 characters a line, LF line ends, a final LF. */
    public static String encode(String label, byte[] der) {
        String body = Base64.getEncoder().encodeToString(der);
        StringBuilder out = new StringBuilder(body.length() + body.length() / LINE_LENGTH + 2 * label.length() + 40);
        out.append("-----BEGIN ").append(label).append("-----\n");
        for (int i = 0; i < body.length(); i += LINE_LENGTH) {
            out.append(body, i, Math.min(body.length(), i + LINE_LENGTH)).append('\n');
        }
        return out.append("-----END ").append(label).append("-----\n").toString();
    }

    /** The DER bytes of the one {@code label} block of {@code text}. */
    public static byte[] decode(String label, String text) {
        if (text == null) {
            throw malformed(label, "text missing");
        }
        String begin = "-----BEGIN " + label + "-----";
        String end = "-----END " + label + "-----";
        String trimmed = text.strip();
        if (!trimmed.startsWith(begin)) {
            throw malformed(label, "does not start with '" + begin + "'");
        }
        if (!trimmed.endsWith(end)) {
            throw malformed(label, "does not end with '" + end + "'");
        }
        String body = trimmed.substring(begin.length(), trimmed.length() - end.length());
        if (body.indexOf('-') >= 0) {
            throw malformed(label, "more than one block, or a header inside the block");
        }
        StringBuilder base64 = new StringBuilder(body.length());
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (c != '\n' && c != '\r' && c != ' ' && c != '\t') {
                base64.append(c);
            }
        }
        if (base64.length() == 0) {
            throw malformed(label, "empty block");
        }
        try {
            return Base64.getDecoder().decode(base64.toString());
        } catch (IllegalArgumentException e) {
            throw malformed(label, "body is not standard base64");
        }
    }

    /** PEM text of a certificate. */
    public static String certificate(X509Certificate certificate) {
        try {
            return encode(CERTIFICATE, certificate.getEncoded());
        } catch (CertificateException e) {
            throw new IllegalStateException("certificate does not encode", e);
        }
    }

    /** The X.509 certificate of a {@value #CERTIFICATE} block; the DER must be exactly one certificate. */
    public static X509Certificate parseCertificate(String text) {
        byte[] der = decode(CERTIFICATE, text);
        X509Certificate certificate;
        try {
            certificate = (X509Certificate) CertificateFactory.getInstance("X.509")
                    .generateCertificate(new ByteArrayInputStream(der));
            // The factory reads one certificate and ignores what follows; trailing bytes are a malformed block.
            if (!Arrays.equals(certificate.getEncoded(), der)) {
                throw malformed(CERTIFICATE, "bytes after the certificate");
            }
        } catch (CertificateException | ClassCastException e) {
            throw malformed(CERTIFICATE, "not an X.509 certificate (" + e.getClass().getSimpleName() + ")");
        }
        return certificate;
    }

    /** PEM text (PKCS#8) of a private key. Secret: the caller keeps the text out of logs and files others can read. */
    public static String privateKey(PrivateKey key) {
        byte[] der = key.getEncoded();
        try {
            return encode(PRIVATE_KEY, der);
        } finally {
            Arrays.fill(der, (byte) 0);
        }
    }

    /** The Ed25519 private key of a {@value #PRIVATE_KEY} block; any other key type is malformed here. */
    public static PrivateKey parseEd25519PrivateKey(String text) {
        byte[] der = decode(PRIVATE_KEY, text);
        try {
            return KeyFactory.getInstance(ED25519).generatePrivate(new PKCS8EncodedKeySpec(der));
        } catch (GeneralSecurityException | RuntimeException e) {
            throw malformed(PRIVATE_KEY, "not a PKCS#8 Ed25519 private key (" + e.getClass().getSimpleName() + ")");
        } finally {
            Arrays.fill(der, (byte) 0);
        }
    }

    private static IllegalArgumentException malformed(String label, String rule) {
        return new IllegalArgumentException("PEM malformed: " + label + ": " + rule);
    }
}
