package org.sperli.transport;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.Channel;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.security.cert.X509Certificate;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sperli.identity.TlsContexts;
import org.sperli.jvm.Clock;
import org.sperli.protocol.frame.FrameHeader;
import org.sperli.protocol.frame.FrameType;
import org.sperli.protocol.frame.ReceiverContext;
import org.sperli.protocol.payload.Heartbeat;
import org.sperli.protocol.payload.Hello;
import org.sperli.runtime.TestJob;

/**
 * An idle connection, built as a rank builds it (TLS 1.3 with the job's certificates, {@link PeerPipeline}, HELLO
 * both ways, heartbeats flowing), holds at most 48 KiB of heap on each end once it has been idle for a while: a rank
 * of 4096 ranks holds 4095 of them (docs/performance.md, section 5.1). Measured as the growth of the heap after full
 * collections when {@value #CONNECTIONS} connections are added between two event loops of this JVM, after a few
 * connections have loaded the classes and the allocator's first chunks.
 */
@Timeout(120)
class IdleConnectionMemoryTest {
    private static final int WARM_UP = 8;
    private static final int CONNECTIONS = 64;
    private static final long MAX_BYTES_PER_END = 48 * 1024;
    private static final long SILENCE_MS = 5000;
    /** Long enough for every end to send heartbeats and settle (the heartbeat interval is 1 s). */
    private static final long IDLE_MS = 1500;

    private final TestJob job = new TestJob(2);
    private final AtomicInteger hellos = new AtomicInteger();

    @Test
    void anIdleConnectionHoldsAtMost48KiBOfHeapOnEachEnd() throws Exception {
        SSLContext acceptorTls = TlsContexts.create(job.job, 2, job.ca.certificate(), job.credentials.get(1));
        SSLContext dialerTls = TlsContexts.create(job.job, 2, job.ca.certificate(), job.credentials.get(0));
        int port = freePort();
        try (Connections acceptor = new Connections(0, Clock.SYSTEM);
             Connections dialer = new Connections(0, Clock.SYSTEM)) {
            JdkTlsEngineFactory acceptorEngines = new JdkTlsEngineFactory(acceptorTls);
            String refused = acceptor.listen(port, PeerPipeline.initializer(acceptorEngines::server, 60_000,
                    (ch, cert, failure) -> established(acceptor, ch, 1, 0, cert, failure)));
            assertTrue(refused == null, refused);
            JdkTlsEngineFactory dialerEngines = new JdkTlsEngineFactory(dialerTls);
            connect(dialer, dialerEngines, port, WARM_UP);
            idle();
            long before = heapAfterCollections();
            connect(dialer, dialerEngines, port, CONNECTIONS);
            idle();
            long after = heapAfterCollections();
            long perEnd = (after - before) / (2L * CONNECTIONS);
            assertTrue(perEnd <= MAX_BYTES_PER_END, "an idle connection holds " + perEnd + " bytes of heap on each end"
                    + " (heap " + before + " -> " + after + " bytes for " + CONNECTIONS + " connections)");
        }
    }

    private void connect(Connections dialer, JdkTlsEngineFactory engines, int port, int count) throws Exception {
        int target = hellos.get() + 2 * count;
        for (int i = 0; i < count; i++) {
            boolean connected = dialer.dial(new InetSocketAddress("127.0.0.1", port), PeerPipeline.initializer(
                    () -> engines.client("127.0.0.1", port), 60_000,
                    (ch, cert, failure) -> established(dialer, ch, 0, 1, cert, failure)));
            assertTrue(connected, "connection " + i + " refused");
        }
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (hellos.get() < target) {
            assertTrue(System.nanoTime() < deadline, "HELLOs: " + hellos.get() + " of " + target);
            Thread.sleep(10);
        }
    }

    private void established(Connections connections, Channel ch, int own, int peer, X509Certificate cert,
                             Throwable failure) {
        if (failure != null) {
            ch.close();
            return;
        }
        AtomicLong beats = new AtomicLong();
        PeerPipeline.established(ch, peer, new ReceiverContext(job.job, 2, own, peer, 1), new Ignoring(),
                SILENCE_MS, () -> OutboundFrame.of(header(FrameType.HEARTBEAT, Heartbeat.LENGTH, own, peer),
                        new Heartbeat(beats.incrementAndGet()).toBytes()), connections.heartbeats(),
                connections.recycledArrays());
        byte[] hello = Hello.v1(job.token(own)).toBytes();
        ch.writeAndFlush(OutboundFrame.of(header(FrameType.HELLO, hello.length, own, peer), hello));
    }

    private FrameHeader header(FrameType type, long length, int own, int peer) {
        return FrameHeader.of(type, length, job.job, own, peer, 1, 0, 0);
    }

    /** Counts HELLOs and drops every other frame. */
    private final class Ignoring extends IgnoredPeerEvents {
        @Override
        public void onHello(int peer, Frame hello) {
            hellos.incrementAndGet();
        }
    }

    private static void idle() throws InterruptedException {
        Thread.sleep(IDLE_MS);
    }

    private static long heapAfterCollections() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(50);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
