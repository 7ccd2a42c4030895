package org.sperli.identity;

import java.net.Socket;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.X509ExtendedTrustManager;
import org.sperli.SperliException;
import org.sperli.protocol.JobId;

/**
 * Trusts the job CA alone. The JDK's PKIX trust manager, built over a key store holding nothing but the CA, validates
 * the chain (signature, validity, CA constraints, extended key usage); then the peer certificate must be Ed25519 and
 * named for a rank of this job. On the dialing side the SAN must also name the host it dialed, read from the engine's
 * or socket's peer host, which is exactly the host string the transport dialed.
 *
 * <p>A refusal is a {@link CertificateException} (what the TLS stack expects) whose cause is the
 * {@link SperliException} with H1611, so the transport can report the rule that failed.
 */
final class JobTrustManager extends X509ExtendedTrustManager {
    private final X509ExtendedTrustManager pkix;
    private final X509Certificate ca;
    private final JobId job;
    private final int size;

    JobTrustManager(X509ExtendedTrustManager pkix, X509Certificate ca, JobId job, int size) {
        this.pkix = pkix;
        this.ca = ca;
        this.job = job;
        this.size = size;
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        pkix.checkClientTrusted(chain, authType, socket);
        checkPeer(chain[0], null);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        pkix.checkClientTrusted(chain, authType, engine);
        checkPeer(chain[0], null);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        pkix.checkClientTrusted(chain, authType);
        checkPeer(chain[0], null);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        pkix.checkServerTrusted(chain, authType, socket);
        SSLSession session = socket instanceof SSLSocket s ? s.getHandshakeSession() : null;
        checkPeer(chain[0], dialedHost(session == null ? null : session.getPeerHost()));
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        pkix.checkServerTrusted(chain, authType, engine);
        checkPeer(chain[0], dialedHost(engine == null ? null : engine.getPeerHost()));
    }

    /** Without a socket or engine the dialed host is unknown, and a server certificate cannot be judged. */
    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        throw new CertificateException("server certificate refused: no socket or engine names the dialed host");
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return new X509Certificate[] {ca};
    }

    private static String dialedHost(String peerHost) throws CertificateException {
        if (peerHost == null || peerHost.isEmpty()) {
            throw new CertificateException("server certificate refused: the connection names no dialed host");
        }
        return peerHost;
    }

    private void checkPeer(X509Certificate peer, String dialedHost) throws CertificateException {
        try {
            PeerIdentity.requireEd25519(peer);
            PeerIdentity.rankOf(peer, job, size);
            if (dialedHost != null) {
                PeerIdentity.checkSan(peer, dialedHost);
            }
        } catch (SperliException e) {
            throw new CertificateException(e.getMessage(), e);
        }
    }
}
