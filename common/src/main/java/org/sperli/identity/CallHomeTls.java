package org.sperli.identity;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyStore;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.sperli.crypto.CertificateBuilder;
import org.sperli.crypto.Ed25519Keys;
import org.sperli.crypto.Sha256;

/**
 * TLS 1.3 of the host agent's call-home under Slurm ({@code docs/sperli-agent.md} section 9): each side has a
 * self-signed Ed25519 certificate made for this one job. The agent trusts the launcher's certificate only by its
 * SHA-256 fingerprint, given on its command line; the launcher takes any client certificate at the handshake,
 * because the agent's key is judged afterwards by the hash that its MUNGE credential binds. The callers make blocking
 * sockets of these contexts (one connection per node carries the control stream, as a pipe does for a local agent);
 * this package does no I/O.
 */
public final class CallHomeTls {
    /** Longest life of a call-home certificate: the job's, at most. */
    static final Duration LIFETIME = Duration.ofDays(31);

    private final KeyPair keys;
    private final X509Certificate certificate;

    private CallHomeTls(KeyPair keys, X509Certificate certificate) {
        this.keys = keys;
        this.certificate = certificate;
    }

    /** A new key and its self-signed certificate named {@code commonName}, valid from {@code now}. */
    public static CallHomeTls create(String commonName, Instant now, SecureRandom random) {
        KeyPair keys = Ed25519Keys.generate(random);
        X509Certificate cert = CertificateBuilder.selfSignedCa(commonName, keys.getPublic(), keys.getPrivate(),
                now.minusSeconds(60), now.plus(LIFETIME), random);
        return new CallHomeTls(keys, cert);
    }

    /** SHA-256 of the certificate's DER, lower-case hex: what the agent pins. */
    public String fingerprintHex() {
        return fingerprintHex(certificate);
    }

    /** SHA-256 of the public key's encoding (SubjectPublicKeyInfo), lower-case hex: what a credential binds. */
    public String keyHashHex() {
        return keyHashHex(keys.getPublic());
    }

    public static String fingerprintHex(X509Certificate certificate) {
        try {
            return HexFormat.of().formatHex(Sha256.of(certificate.getEncoded()));
        } catch (java.security.cert.CertificateEncodingException e) {
            throw new IllegalStateException("certificate without encoding", e);
        }
    }

    public static String keyHashHex(PublicKey key) {
        return HexFormat.of().formatHex(Sha256.of(key.getEncoded()));
    }

    /**
     * The launcher's context: its key and certificate; any single client certificate passes the handshake (the
     * credential judges the key afterwards).
     */
    public SSLContext serverContext() throws IOException {
        return context(new AnyClient());
    }

    /** An agent's context: its key and certificate; the server's certificate must have {@code fingerprintHex}. */
    public SSLContext clientContext(String fingerprintHex) throws IOException {
        return context(new Pinned(fingerprintHex));
    }

    /** {@code parameters} narrowed to TLS 1.3 with a required client certificate; returns the same object. */
    public static SSLParameters restrict(SSLParameters parameters) {
        return Tls13Only.restrict(parameters);
    }

    private SSLContext context(X509TrustManager trust) throws IOException {
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            char[] password = new char[0];
            store.setKeyEntry("call-home", keys.getPrivate(), password, new X509Certificate[] {certificate});
            KeyManagerFactory keyManagers = KeyManagerFactory.getInstance("SunX509");
            keyManagers.init(store, password);
            SSLContext context = SSLContext.getInstance(Tls13Only.PROTOCOL, "SunJSSE");
            context.init(keyManagers.getKeyManagers(), new TrustManager[] {trust}, new SecureRandom());
            return context;
        } catch (GeneralSecurityException e) {
            throw new IOException("call-home TLS cannot be set up: " + e.getMessage(), e);
        }
    }

    /** The launcher's side: any single certificate; the credential decides. */
    private static final class AnyClient implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            if (chain == null || chain.length != 1) {
                throw new CertificateException("expected one self-signed certificate");
            }
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            throw new CertificateException("not a client");
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }

    /** The agent's side: the launcher's certificate by its fingerprint, nothing else. */
    private static final class Pinned implements X509TrustManager {
        private final String fingerprintHex;

        Pinned(String fingerprintHex) {
            this.fingerprintHex = fingerprintHex;
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            throw new CertificateException("not a server");
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            if (chain == null || chain.length == 0 || !fingerprintHex(chain[0]).equals(fingerprintHex)) {
                throw new CertificateException("the launcher's certificate is not the one of --launcher-sha256");
            }
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
