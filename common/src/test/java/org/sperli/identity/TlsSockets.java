package org.sperli.identity;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import org.sperli.protocol.JobId;

/**
 * JDK sockets that carry a rank's TLS identity and trust, for tests that speak to ranks as a peer or a stranger would,
 * and for the bare-JSSE baseline of the transport benchmark. The runtime's own contexts make engines only
 * ({@link TlsContexts#create}); these sockets come from the same context before that restriction, and are restricted
 * here the same way: TLS 1.3 only, a client certificate required in server mode.
 */
public final class TlsSockets {
    private TlsSockets() {
    }

    /** The rank's JDK context, which makes sockets (unrestricted ones: a rogue peer may offer TLS 1.2 from it). */
    public static SSLContext context(JobId job, int size, X509Certificate jobCa, RankCredentials rank) {
        return TlsContexts.initialised(job, size, jobCa, rank);
    }

    /** A TLS 1.3 listening socket from {@code context} that requires a client certificate. */
    public static SSLServerSocket listen(SSLContext context, int port, int backlog, InetAddress bind)
            throws IOException {
        SSLServerSocket socket = (SSLServerSocket) context.getServerSocketFactory()
                .createServerSocket(port, backlog, bind);
        socket.setSSLParameters(Tls13Only.restrict(socket.getSSLParameters()));
        return socket;
    }

    /**
     * TLS 1.3 from {@code context} over the connected {@code plain} socket, which it closes when it is closed; the
     * server certificate is checked against {@code host}.
     */
    public static SSLSocket layer(SSLContext context, Socket plain, String host, int port) throws IOException {
        return restrict(context.getSocketFactory().createSocket(plain, host, port, true));
    }

    /** An unconnected TLS 1.3 socket from {@code context}. */
    public static SSLSocket unconnected(SSLContext context) throws IOException {
        return restrict(context.getSocketFactory().createSocket());
    }

    private static SSLSocket restrict(Socket socket) {
        SSLSocket ssl = (SSLSocket) socket;
        ssl.setSSLParameters(Tls13Only.restrict(ssl.getSSLParameters()));
        return ssl;
    }
}
