package org.sperli.identity;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLServerSocketFactory;

/**
 * A server socket factory whose every server socket, and so every accepted socket, is restricted by
 * {@link Tls13Only#restrict(javax.net.ssl.SSLParameters)}. It delegates as its twin {@link Tls13SocketFactory} does,
 * to the other of the JDK's two factory types, which share no interface: the pair is a deliberate specialisation.
 */
final class Tls13ServerSocketFactory extends SSLServerSocketFactory {
    private final SSLServerSocketFactory inner;

    Tls13ServerSocketFactory(SSLServerSocketFactory inner) {
        this.inner = inner;
    }

    @Override
    public String[] getDefaultCipherSuites() {
        return inner.getDefaultCipherSuites();
    }

    @Override
    public String[] getSupportedCipherSuites() {
        return inner.getSupportedCipherSuites();
    }

    @Override
    public ServerSocket createServerSocket() throws IOException {
        return restrict(inner.createServerSocket());
    }

    @Override
    public ServerSocket createServerSocket(int port) throws IOException {
        return restrict(inner.createServerSocket(port));
    }

    @Override
    public ServerSocket createServerSocket(int port, int backlog) throws IOException {
        return restrict(inner.createServerSocket(port, backlog));
    }

    @Override
    public ServerSocket createServerSocket(int port, int backlog, InetAddress bindAddress) throws IOException {
        return restrict(inner.createServerSocket(port, backlog, bindAddress));
    }

    private static ServerSocket restrict(ServerSocket socket) {
        SSLServerSocket ssl = (SSLServerSocket) socket;
        ssl.setSSLParameters(Tls13Only.restrict(ssl.getSSLParameters()));
        return ssl;
    }
}
