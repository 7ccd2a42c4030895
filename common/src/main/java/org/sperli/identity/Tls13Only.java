package org.sperli.identity;

import java.security.KeyManagementException;
import java.security.SecureRandom;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLContextSpi;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocketFactory;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;

/**
 * Wraps a JDK {@link SSLContext} so that every engine it makes, and its default parameters, allow TLS 1.3 alone and
 * demand a client certificate in server mode. The JDK's own "TLSv1.3" context still enables TLS 1.2 by default; here
 * nobody can forget to narrow it, the Netty transport included.
 *
 * <p>It makes no sockets: the runtime speaks TLS through engines only, and a socket would be one more product to
 * restrict, with nothing in SPERLI to use it. Asking for a socket factory is a programming error.
 *
 * <p>{@code needClientAuth} is set on every engine: a client-mode engine ignores it, and an engine the caller later
 * puts into server mode keeps it.
 */
final class Tls13Only extends SSLContextSpi {
    static final String PROTOCOL = "TLSv1.3";

    private final SSLContext inner;

    private Tls13Only(SSLContext inner) {
        this.inner = inner;
    }

    /** An initialised context whose every product is restricted as described above. */
    static SSLContext wrap(SSLContext initialised) {
        return new SSLContext(new Tls13Only(initialised), initialised.getProvider(), PROTOCOL) {
        };
    }

    /** {@code parameters} restricted to TLS 1.3 with a required client certificate; returns the same object. */
    static SSLParameters restrict(SSLParameters parameters) {
        parameters.setProtocols(new String[] {PROTOCOL});
        parameters.setNeedClientAuth(true);
        return parameters;
    }

    static SSLEngine restrict(SSLEngine engine) {
        engine.setSSLParameters(restrict(engine.getSSLParameters()));
        return engine;
    }

    @Override
    protected void engineInit(KeyManager[] keyManagers, TrustManager[] trustManagers, SecureRandom random)
            throws KeyManagementException {
        throw new KeyManagementException("this context is initialised once, by TlsContexts");
    }

    @Override
    protected SSLSocketFactory engineGetSocketFactory() {
        throw noSockets();
    }

    @Override
    protected SSLServerSocketFactory engineGetServerSocketFactory() {
        throw noSockets();
    }

    private static UnsupportedOperationException noSockets() {
        return new UnsupportedOperationException("a SPERLI TLS context makes SSLEngines only, no sockets");
    }

    // One override per SPI method, each handing on to the wrapped context, as RankRuntime's accessors hand on to its
    // configuration: SSLContextSpi has no forwarding base class, and only the products (engines, default parameters)
    // are restricted on the way out.

    @Override
    protected SSLEngine engineCreateSSLEngine() {
        return restrict(inner.createSSLEngine());
    }

    @Override
    protected SSLEngine engineCreateSSLEngine(String host, int port) {
        return restrict(inner.createSSLEngine(host, port));
    }

    @Override
    protected SSLSessionContext engineGetServerSessionContext() {
        return inner.getServerSessionContext();
    }

    @Override
    protected SSLSessionContext engineGetClientSessionContext() {
        return inner.getClientSessionContext();
    }

    @Override
    protected SSLParameters engineGetDefaultSSLParameters() {
        return restrict(inner.getDefaultSSLParameters());
    }

    @Override
    protected SSLParameters engineGetSupportedSSLParameters() {
        return inner.getSupportedSSLParameters();
    }
}
