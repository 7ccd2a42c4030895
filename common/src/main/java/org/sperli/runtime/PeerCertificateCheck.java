package org.sperli.runtime;

import java.security.cert.X509Certificate;

/** The post-handshake identity checks, kept apart from the TLS engine so another engine gets the same checks. */
public interface PeerCertificateCheck {
    /** The rank named by the peer's certificate for this job; SperliException H1611 when it names none. */
    int rankOf(X509Certificate peer);

    /** Checks the server certificate's SAN against the host the dialing side dialed; H1611 when it differs. */
    void checkDialedHost(X509Certificate server, String dialedHost);
}
