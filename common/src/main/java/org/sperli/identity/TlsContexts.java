package org.sperli.identity;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.Objects;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;
import org.sperli.protocol.JobId;
import org.sperli.protocol.Limits;

/**
 * The JDK (SunJSSE) TLS context of one rank (transport and security; tables section 10), for both sides of its
 * connections:
 *
 * <ul>
 *   <li>TLS 1.3 only, on every engine and in the default parameters; a client certificate is required in server
 *   mode; the context makes no sockets (the runtime uses engines alone);</li>
 *   <li>the key manager holds the rank's Ed25519 key and certificate and nothing else;</li>
 *   <li>the trust manager trusts the job CA alone (no system trust store), wants an Ed25519 peer named
 *   {@code sperli-<job>-<rank>} with a rank below the size, and on the dialing side checks the SAN against the host
 *   the engine was created for ({@code createSSLEngine(host, port)});</li>
 *   <li>no session resumption: the server sends no session tickets (see {@link #NO_TICKETS_TIMEOUT_SECONDS}), so a
 *   client never holds a session to resume, and each handshake is a full one that runs the trust manager.</li>
 * </ul>
 *
 * <p>Which rank the peer must be is known only to the caller: after the handshake it compares
 * {@link PeerIdentity#rankOf} of the peer certificate with the rank it expects (H1611 when they differ).
 */
public final class TlsContexts {
    /**
     * The server session timeout in seconds. SunJSSE sends no TLS 1.3 NewSessionTicket when the timeout is longer than
     * the 7-day ticket lifetime limit of RFC 8446, and without a ticket there is nothing to resume. There is no
     * per-context switch for this in Java 17 (only JVM-wide system properties), so this is the per-context way.
     */
    static final int NO_TICKETS_TIMEOUT_SECONDS = 7 * 24 * 60 * 60 + 1;

    /** The smallest session cache the JDK allows. */
    static final int SESSION_CACHE_SIZE = 1;

    private static final String PROVIDER = "SunJSSE";
    private static final String CA_ALIAS = "job-ca";

    private TlsContexts() {
    }

    /**
     * The context of a rank of {@code job} (size {@code size}) with the given credentials, trusting {@code jobCa}
     * alone.
     */
    public static SSLContext create(JobId job, int size, X509Certificate jobCa, RankCredentials rank) {
        return Tls13Only.wrap(initialised(job, size, jobCa, rank));
    }

    /**
     * The JDK context inside {@link #create}, before it is restricted to TLS 1.3 engines: tests and the bare-JSSE
     * benchmark baseline make sockets from it with the rank's identity and trust.
     */
    static SSLContext initialised(JobId job, int size, X509Certificate jobCa, RankCredentials rank) {
        Objects.requireNonNull(job, "job");
        Objects.requireNonNull(jobCa, "jobCa");
        Objects.requireNonNull(rank, "rank");
        if (size < Limits.MIN_SIZE || size > Limits.MAX_SIZE) {
            throw new IllegalArgumentException("size=" + size + ", expected " + Limits.MIN_SIZE + ".."
                    + Limits.MAX_SIZE);
        }
        try {
            SSLContext context = SSLContext.getInstance(Tls13Only.PROTOCOL, PROVIDER);
            context.init(new KeyManager[] {new RankKeyManager(rank)},
                    new TrustManager[] {new JobTrustManager(pkixTrusting(jobCa), jobCa, job, size)}, null);
            context.getServerSessionContext().setSessionTimeout(NO_TICKETS_TIMEOUT_SECONDS);
            // Nothing is ever resumed, so caching sessions would only hold up to 4095 peers' sessions in memory
            // for the long timeout above. (0 would mean "unbounded".)
            context.getServerSessionContext().setSessionCacheSize(SESSION_CACHE_SIZE);
            context.getClientSessionContext().setSessionCacheSize(SESSION_CACHE_SIZE);
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("TLS context not built: " + e.getClass().getSimpleName(), e);
        }
    }

    /** The JDK's PKIX trust manager over a key store that holds the job CA and nothing else. */
    private static X509ExtendedTrustManager pkixTrusting(X509Certificate jobCa)
            throws GeneralSecurityException, IOException {
        KeyStore anchors = KeyStore.getInstance("PKCS12");
        anchors.load(null, null);
        anchors.setCertificateEntry(CA_ALIAS, jobCa);
        TrustManagerFactory factory = TrustManagerFactory.getInstance("PKIX", PROVIDER);
        factory.init(anchors);
        for (TrustManager manager : factory.getTrustManagers()) {
            if (manager instanceof X509ExtendedTrustManager extended) {
                return extended;
            }
        }
        throw new GeneralSecurityException("SunJSSE offers no X509ExtendedTrustManager");
    }
}
