package org.sperli.identity;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Rank TLS contexts over loopback with plain JDK sockets ({@link TlsSockets}: the same identity and trust as the
 * runtime's engines). The dialing side connects TCP to 127.0.0.1 and layers TLS
 * over it with the host-list entry as the host, as the transport does, so DNS plays no part.
 */
class TlsContextsTest {
    private static final int TIMEOUT_MS = 10_000;
    private static final int ECHO = 42;

    private static ExecutorService acceptor;
    private static TestJob job;
    private static TestJob otherJob;

    @BeforeAll
    static void setUp() {
        acceptor = Executors.newSingleThreadExecutor();
        job = TestJob.create(List.of("node0.example", "node1.example", "127.0.0.1"));
        otherJob = TestJob.create(List.of("node0.example", "node1.example", "127.0.0.1"));
    }

    @AfterAll
    static void tearDown() {
        acceptor.shutdownNow();
    }

    @Test
    void twoRanksOfOneJobHandshakeWithTls13AndEd25519() throws Exception {
        Outcome o = connect(context(job, 1), context(job, 0), "node1.example", s -> { });
        assertNull(o.clientFailure, () -> "client: " + o.clientFailure);
        assertNull(o.serverFailure, () -> "server: " + o.serverFailure);
        assertEquals("TLSv1.3", o.client.protocol);
        assertEquals("TLSv1.3", o.server.protocol);
        assertEquals("EdDSA", o.client.peer.getPublicKey().getAlgorithm());
        assertEquals("Ed25519", o.client.peer.getSigAlgName());
        assertEquals("EdDSA", o.server.peer.getPublicKey().getAlgorithm());
        assertEquals(1, PeerIdentity.rankOf(o.client.peer, job.job, job.size()), "client sees rank 1");
        assertEquals(0, PeerIdentity.rankOf(o.server.peer, job.job, job.size()), "server sees rank 0");
    }

    @Test
    void dialingAnIpv4HostChecksTheSanAsAnAddress() throws Exception {
        Outcome o = connect(context(job, 2), context(job, 0), "127.0.0.1", s -> { });
        assertNull(o.clientFailure, () -> "client: " + o.clientFailure);
        assertEquals(2, PeerIdentity.rankOf(o.client.peer, job.job, job.size()));
    }

    @Test
    void tls12OnlyClientIsRefused() throws Exception {
        Outcome o = connect(context(job, 1), context(job, 0), "node1.example",
                s -> s.setEnabledProtocols(new String[] {"TLSv1.2"}));
        assertServerRefused(o);
        assertNotNull(o.clientFailure);
    }

    @Test
    void clientWithACertificateOfAnotherJobsCaIsRefused() throws Exception {
        // The client trusts this job's CA, so the server alone decides: a client of the other job altogether would
        // refuse the server too, and might close before the server had refused it.
        SSLContext foreignCertificate = TlsSockets.context(job.job, job.size(), job.ca.certificate(),
                otherJob.credentials(0));
        Outcome o = connect(context(job, 1), foreignCertificate, "node1.example", s -> { });
        assertServerRefused(o);
        assertNotNull(o.clientFailure);
    }

    @Test
    void serverWithACertificateOfAnotherJobsCaIsRefusedByTheClient() throws Exception {
        Outcome o = connect(context(otherJob, 1), context(job, 0), "node1.example", s -> { });
        assertInstanceOf(SSLHandshakeException.class, o.clientFailure, String.valueOf(o.clientFailure));
        assertNotNull(o.serverFailure);
    }

    @Test
    void serverWhoseSanIsNotTheDialedHostIsRefusedWithH1611() throws Exception {
        Outcome o = connect(context(job, 1), context(job, 0), "node2.example", s -> { });
        assertInstanceOf(SSLHandshakeException.class, o.clientFailure, String.valueOf(o.clientFailure));
        assertTrue(causeMessages(o.clientFailure).contains("H1611"), causeMessages(o.clientFailure));
    }

    @Test
    void clientWithoutACertificateIsRefused() throws Exception {
        KeyStore anchors = KeyStore.getInstance("PKCS12");
        anchors.load(null, null);
        anchors.setCertificateEntry("ca", job.ca.certificate());
        TrustManagerFactory trust = TrustManagerFactory.getInstance("PKIX");
        trust.init(anchors);
        SSLContext anonymous = SSLContext.getInstance("TLSv1.3");
        anonymous.init(null, trust.getTrustManagers(), null);
        Outcome o = connect(context(job, 1), anonymous, "node1.example",
                s -> s.setEnabledProtocols(new String[] {"TLSv1.3"}));
        assertServerRefused(o);
        assertNotNull(o.clientFailure);
    }

    @Test
    void everyEngineOfTheContextIsTls13OnlyAndDemandsAClientCertificate() {
        SSLContext context = TlsContexts.create(job.job, job.size(), job.ca.certificate(), job.credentials(0));
        SSLParameters defaults = context.getDefaultSSLParameters();
        assertArrayEquals(new String[] {"TLSv1.3"}, defaults.getProtocols());
        assertTrue(defaults.getNeedClientAuth());
        SSLEngine server = context.createSSLEngine();
        server.setUseClientMode(false);
        assertArrayEquals(new String[] {"TLSv1.3"}, server.getEnabledProtocols());
        assertTrue(server.getNeedClientAuth());
        SSLEngine client = context.createSSLEngine("node1.example", 7001);
        client.setUseClientMode(true);
        assertArrayEquals(new String[] {"TLSv1.3"}, client.getEnabledProtocols());
    }

    @Test
    void theContextMakesNoSocketsWhichWouldEscapeTheRestriction() {
        SSLContext context = TlsContexts.create(job.job, job.size(), job.ca.certificate(), job.credentials(0));
        assertThrows(UnsupportedOperationException.class, context::getSocketFactory);
        assertThrows(UnsupportedOperationException.class, context::getServerSocketFactory);
    }

    @Test
    void socketsMadeForTestsAreTls13OnlyAndTheListenerDemandsAClientCertificate() throws Exception {
        SSLContext context = context(job, 0);
        try (SSLServerSocket socket = TlsSockets.listen(context, 0, 1, InetAddress.getLoopbackAddress())) {
            assertArrayEquals(new String[] {"TLSv1.3"}, socket.getEnabledProtocols());
            assertTrue(socket.getNeedClientAuth());
        }
        try (SSLSocket socket = TlsSockets.unconnected(context)) {
            assertArrayEquals(new String[] {"TLSv1.3"}, socket.getEnabledProtocols());
        }
    }

    @Test
    void serverSessionTimeoutIsAboveTheTicketLifetimeSoNoTicketIsSent() {
        // SunJSSE sends no NewSessionTicket above 7 days; without a ticket a TLS 1.3 client cannot resume.
        SSLContext context = TlsContexts.create(job.job, job.size(), job.ca.certificate(), job.credentials(0));
        assertTrue(context.getServerSessionContext().getSessionTimeout() > 7 * 24 * 3600);
        assertEquals(1, context.getServerSessionContext().getSessionCacheSize());
        assertEquals(1, context.getClientSessionContext().getSessionCacheSize());
    }

    /** The rank's context before its restriction to engines: the sockets below restrict themselves. */
    private static SSLContext context(TestJob j, int rank) {
        return TlsSockets.context(j.job, j.size(), j.ca.certificate(), j.credentials(rank));
    }

    /** One connection: the server accepts and echoes a byte; the client dials {@code dialHost} and echoes one. */
    private static Outcome connect(SSLContext serverContext, SSLContext clientContext, String dialHost,
                                   Consumer<SSLSocket> clientSetup) throws Exception {
        try (SSLServerSocket server = TlsSockets.listen(serverContext, 0, 1, InetAddress.getLoopbackAddress())) {
            server.setSoTimeout(TIMEOUT_MS);
            Future<Side> serverSide = acceptor.submit(() -> {
                try (SSLSocket s = (SSLSocket) server.accept()) {
                    s.setSoTimeout(TIMEOUT_MS);
                    s.startHandshake();
                    int b = s.getInputStream().read();
                    s.getOutputStream().write(b);
                    s.getOutputStream().flush();
                    return Side.of(s.getSession());
                }
            });
            Side client = null;
            Throwable clientFailure = null;
            try (Socket tcp = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
                 SSLSocket s = TlsSockets.layer(clientContext, tcp, dialHost, server.getLocalPort())) {
                s.setSoTimeout(TIMEOUT_MS);
                clientSetup.accept(s);
                s.startHandshake();
                // TLS 1.3 tells a client late that the server refused its certificate: only a read shows it.
                s.getOutputStream().write(ECHO);
                s.getOutputStream().flush();
                if (s.getInputStream().read() != ECHO) {
                    throw new IOException("no echo");
                }
                client = Side.of(s.getSession());
            } catch (IOException e) {
                clientFailure = e;
            }
            Side serverResult = null;
            Throwable serverFailure = null;
            try {
                serverResult = serverSide.get(2 * TIMEOUT_MS, TimeUnit.MILLISECONDS);
            } catch (ExecutionException e) {
                serverFailure = e.getCause();
            }
            return new Outcome(client, clientFailure, serverResult, serverFailure);
        }
    }

    /** The server's own handshake refused the client: it holds no session. */
    private static void assertServerRefused(Outcome o) {
        assertNull(o.server, "the server completed a handshake it should have refused");
        assertInstanceOf(SSLHandshakeException.class, o.serverFailure, String.valueOf(o.serverFailure));
    }

    private static String causeMessages(Throwable t) {
        StringBuilder out = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            out.append(c).append(" <- ");
        }
        return out.toString();
    }

    private record Side(String protocol, X509Certificate peer) {
        static Side of(SSLSession session) throws IOException {
            return new Side(session.getProtocol(), (X509Certificate) session.getPeerCertificates()[0]);
        }
    }

    private record Outcome(Side client, Throwable clientFailure, Side server, Throwable serverFailure) {
    }
}
