package org.sperli.transport;

import javax.net.ssl.SSLEngine;

/**
 * The single replaceable TLS piece: it makes the engines of one rank. The JDK provider implements it now
 * ({@link JdkTlsEngineFactory}); an OpenSSL-class engine (Netty's BoringSSL binding) can implement it later under the
 * same post-handshake checks, which live in the runtime, not here.
 */
public interface TlsEngineFactory {
    /** An engine for dialing {@code host}: client mode, TLS 1.3 only, presenting the rank certificate. */
    SSLEngine client(String host, int port);

    /** An engine for an accepted connection: server mode, TLS 1.3 only, demanding a client certificate. */
    SSLEngine server();
}
