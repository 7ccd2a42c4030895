package org.sperli.identity;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * A socket factory whose every socket is restricted by {@link Tls13Only#restrict(javax.net.ssl.SSLParameters)}. Its
 * twin {@link Tls13ServerSocketFactory} delegates the same way to the other of the JDK's two factory types, which share
 * no interface: the pair is a deliberate specialisation, not a copy to merge.
 */
final class Tls13SocketFactory extends SSLSocketFactory {
    private final SSLSocketFactory inner;

    Tls13SocketFactory(SSLSocketFactory inner) {
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
    public Socket createSocket() throws IOException {
        return restrict(inner.createSocket());
    }

    @Override
    public Socket createSocket(Socket socket, String host, int port, boolean autoClose) throws IOException {
        return restrict(inner.createSocket(socket, host, port, autoClose));
    }

    @Override
    public Socket createSocket(Socket socket, InputStream consumed, boolean autoClose) throws IOException {
        return restrict(inner.createSocket(socket, consumed, autoClose));
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        return restrict(inner.createSocket(host, port));
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
        return restrict(inner.createSocket(host, port, localHost, localPort));
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        return restrict(inner.createSocket(host, port));
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
            throws IOException {
        return restrict(inner.createSocket(address, port, localAddress, localPort));
    }

    private static Socket restrict(Socket socket) {
        SSLSocket ssl = (SSLSocket) socket;
        ssl.setSSLParameters(Tls13Only.restrict(ssl.getSSLParameters()));
        return ssl;
    }
}
