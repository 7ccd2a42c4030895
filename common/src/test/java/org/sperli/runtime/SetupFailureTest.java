package org.sperli.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.identity.TlsSockets;
import org.sperli.protocol.frame.FrameHeader;
import org.sperli.protocol.frame.FrameType;

/**
 * A rank whose setup fails after some peers connected tells them why: ABORT, never the BYE of a normal end; one that
 * cannot listen at all says why in words the operator can act on.
 */
class SetupFailureTest {
    /**
     * Rank 1 is real. Rank 0 (by hand) connects and exchanges HELLO; only then does rank 2's port accept TCP, so rank
     * 1 dials on to rank 3, whose host name does not resolve.
     */
    @Test
    void aPeerHostThatDoesNotResolveEndsTheSetupWithAnAbortToThePeersAlreadyConnected() throws Exception {
        TestJob job = new TestJob(4);
        job.hosts.set(3, new PeerAddress("no-such-host.invalid", job.hosts.get(3).port()));
        RankConfig config = job.config(1);
        CompletableFuture<SperliException> rank1 = CompletableFuture.supplyAsync(() ->
                assertThrows(SperliException.class, () -> RankRuntime.connect(config).close()));
        try (RoguePeer zero = RoguePeer.tls(TlsSockets.context(job.job, job.size, job.ca.certificate(),
                job.credentials.get(0)), job.hosts.get(1).port())) {
            zero.sendHello(job, 0, 1, job.token(0));
            assertNotNull(zero.readUntil(FrameType.HELLO));
            try (ServerSocket two = new ServerSocket(job.hosts.get(2).port(), 1, InetAddress.getByName("127.0.0.1"))) {
                FrameHeader h;
                do {
                    h = zero.readFrame();
                } while (h != null && h.frameType() == FrameType.HEARTBEAT);
                assertNotNull(h, "the connection ended without a frame");
                assertEquals(FrameType.ABORT, h.frameType());
            }
            SperliException e = rank1.get(30, TimeUnit.SECONDS);
            assertEquals(ErrorCode.H1613, e.code());
            assertTrue(e.reason().contains("no-such-host.invalid"), e.reason());
        }
    }

    @Test
    void aPortHeldByAnotherProcessIsNamedAsSuchNotAsALostPeer() throws Exception {
        TestJob job = new TestJob(2);
        int port = job.hosts.get(0).port();
        try (ServerSocket holder = new ServerSocket()) {
            holder.bind(new InetSocketAddress("0.0.0.0", port));

            SperliException e = assertThrows(SperliException.class, () -> RankRuntime.connect(job.config(0)).close());

            assertEquals(ErrorCode.H1613, e.code());
            assertEquals("H1613 peer lost or unreachable: port " + port + " is held by another process on this host,"
                    + " so this rank cannot listen there; start the job with another --port-base, or give the rank"
                    + " another port in the host list", e.getMessage());
        }
    }
}
