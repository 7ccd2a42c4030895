package org.sperli.transport;

import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import java.util.List;
import org.sperli.jobspec.HostSyntax;

/**
 * Engines from a JDK {@link SSLContext} whose key manager holds the rank's Ed25519 key and whose trust manager trusts
 * the job CA alone. Applies the v1 TLS rules: TLS 1.3 only, no ALPN, SNI only for DNS names, client certificate
 * required. Session resumption is off at the context level (see the context's builder).
 */
public final class JdkTlsEngineFactory implements TlsEngineFactory {
    private static final String[] TLS13 = {"TLSv1.3"};

    private final SSLContext context;

    public JdkTlsEngineFactory(SSLContext context) {
        this.context = context;
    }

    @Override
    public SSLEngine client(String host, int port) {
        SSLEngine engine = context.createSSLEngine(host, port);
        engine.setUseClientMode(true);
        SSLParameters params = engine.getSSLParameters();
        params.setProtocols(TLS13);
        params.setServerNames(HostSyntax.isIpv4(host) ? List.of() : List.of(new SNIHostName(host)));
        engine.setSSLParameters(params);
        return engine;
    }

    @Override
    public SSLEngine server() {
        SSLEngine engine = context.createSSLEngine();
        engine.setUseClientMode(false);
        SSLParameters params = engine.getSSLParameters();
        params.setProtocols(TLS13);
        params.setNeedClientAuth(true);
        engine.setSSLParameters(params);
        return engine;
    }
}
