package org.sperli.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.Test;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.identity.RankCredentials;
import org.sperli.identity.TlsSockets;
import org.sperli.jobspec.JoinToken;
import org.sperli.jobspec.JoinTokens;
import org.sperli.protocol.frame.FrameHeader;
import org.sperli.protocol.frame.FrameType;
import org.sperli.protocol.payload.Abort;

/**
 * Every refusal of the transport, sent by a hand-driven peer to a real rank over TLS on loopback. The real rank is
 * rank 1 of the job; the rogue dials it as rank 0 unless a case needs otherwise.
 */
class RefusalTest {

    /** Rank 1: connects, then waits for a message from rank 0; gives the message or the code it ended with. */
    private static CompletableFuture<TestJob.Outcome<String>> rank1(TestJob job) {
        RankConfig config = job.config(1);
        return CompletableFuture.supplyAsync(() -> {
            try (RankRuntime rt = RankRuntime.connect(config)) {
                return new TestJob.Outcome<>(new String(rt.recv(0, 5), StandardCharsets.UTF_8), null);
            } catch (SperliException e) {
                return new TestJob.Outcome<String>(null, e);
            }
        });
    }

    private static ErrorCode codeOf(CompletableFuture<TestJob.Outcome<String>> rank) throws Exception {
        TestJob.Outcome<String> o = rank.get(30, TimeUnit.SECONDS);
        assertNotNull(o.error(), "expected the rank to fail, it received: " + o.value());
        return o.error().code();
    }

    /** The rank's identity for a socket: a rogue peer with a genuine certificate. */
    private static SSLContext context(TestJob job, int rank) {
        return TlsSockets.context(job.job, job.size, job.ca.certificate(), job.credentials.get(rank));
    }

    /** A rogue rank 0 that completed TLS and sent a HELLO with {@code token}. */
    private static RoguePeer helloAsRank0(TestJob job, byte[] token) throws Exception {
        RoguePeer rogue = RoguePeer.tls(context(job, 0), job.hosts.get(1).port());
        rogue.sendHello(job, 0, 1, token);
        return rogue;
    }

    private static FrameHeader data(TestJob job, long length, long source, long incarnation, long tag) {
        return new FrameHeader(length, FrameType.DATA.code(), 0, 0, 0, job.job, source, 1, incarnation, tag, 0);
    }

    /** After a bad frame: rank 1 fails with {@code code}, and the rogue receives ABORT reason 2 carrying it. */
    private static void assertRefusedWith(ErrorCode code, TestJob job, CompletableFuture<TestJob.Outcome<String>> rank,
                                          RoguePeer rogue) throws Exception {
        assertEquals(code, codeOf(rank));
        FrameHeader abort = rogue.readUntilAbortHeader();
        assertNotNull(abort, "the refusing rank sends ABORT before it closes");
    }

    @Test
    void rankThatCannotReachAHigherRankWithinTheStallBoundFailsWithH1613() {
        TestJob job = new TestJob(2);
        // Nobody listens at rank 1's port; the stall bound is shortened from 30 s to keep the test quick.
        RankConfig config = job.config(0).withSetupBounds(java.time.Duration.ofMillis(1500),
                java.time.Duration.ofSeconds(5));
        long start = System.nanoTime();
        SperliException e = assertThrows(SperliException.class, () -> RankRuntime.connect(config).close());
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertEquals(ErrorCode.H1613, e.code());
        assertTrue(e.reason().contains("could not reach rank 1"), e.reason());
        assertTrue(ms >= 1400 && ms < 10_000, "gave up after " + ms + " ms");
    }

    @Test
    void plaintextClientIsClosedAndTheRankKeepsAccepting() throws Exception {
        TestJob job = new TestJob(2);
        var rank = rank1(job);
        try (RoguePeer rogue = RoguePeer.plain(job.hosts.get(1).port())) {
            rogue.out.write("GET / HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            rogue.out.flush();
            assertEquals(-1, rogue.in.read(), "the rank closes a plaintext connection");
        }
        realRank0SendsAndRank1Receives(job, rank);
    }

    /**
     * Two hundred strangers during setup (plaintext, and connections closed before a handshake; issue 17's burst):
     * none makes Netty log a stack trace, the rank writes at most a burst of short lines about them (counted here),
     * none says "null", and the job goes on.
     */
    @Test
    void aFloodOfStrangersGetsAFewShortLinesAndNoStackTrace() throws Exception {
        List<LogRecord> nettyWarnings = Collections.synchronizedList(new ArrayList<>());
        Logger netty = Logger.getLogger("io.netty");
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                    nettyWarnings.add(record);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        netty.addHandler(capture);
        try {
            TestJob job = new TestJob(2);
            var rank = rank1(job);
            for (int i = 0; i < 200; i++) {
                try (RoguePeer rogue = RoguePeer.plain(job.hosts.get(1).port())) {
                    if (i % 2 == 0) {
                        rogue.out.write("GET / HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                        rogue.out.flush();
                        rogue.in.read();
                    }
                }
            }
            realRank0SendsAndRank1Receives(job, rank);
            List<String> refusals = job.log.stream().filter(l -> l.contains("refused a connection from")).toList();
            assertTrue(!refusals.isEmpty() && refusals.size() <= 2 * RefusedConnections.BURST, String.join("\n",
                    refusals));
            assertTrue(refusals.stream().noneMatch(l -> l.endsWith(": null")), String.join("\n", refusals));
            assertEquals(List.of(), nettyWarnings.stream().map(r -> r.getLoggerName() + ": " + r.getMessage()).toList(),
                    "Netty logged what the rank already said");
        } finally {
            netty.removeHandler(capture);
        }
    }

    @Test
    void tls12ClientIsRefusedAndTheRankKeepsAccepting() throws Exception {
        TestJob job = new TestJob(2);
        var rank = rank1(job);
        SSLContext tls12 = SSLContext.getInstance("TLSv1.2");
        tls12.init(null, new TrustManager[] {new TrustAll()}, new SecureRandom());
        assertThrows(Exception.class, () -> RoguePeer.tls(tls12, job.hosts.get(1).port(), "TLSv1.2").close());
        realRank0SendsAndRank1Receives(job, rank);
    }

    @Test
    void certificateFromAnotherJobsCaIsRefusedAndTheRankKeepsAccepting() throws Exception {
        TestJob job = new TestJob(2);
        TestJob stranger = new TestJob(2);
        var rank = rank1(job);
        try {
            RoguePeer rogue = RoguePeer.tls(context(stranger, 0), job.hosts.get(1).port());
            // TLS 1.3 tells the client late that its certificate was refused: the first read fails or ends.
            assertTrue(rogue.readFrame() == null);
            rogue.close();
        } catch (Exception expected) {
            // refused during the handshake
        }
        realRank0SendsAndRank1Receives(job, rank);
    }

    @Test
    void jobCertificateForAnUnexpectedRankAbortsWithH1611() throws Exception {
        TestJob job = new TestJob(3);
        var rank = rank1(job);
        // Rank 1 accepts only rank 0; a connection authenticated as rank 2 (a higher rank) is refused.
        try (RoguePeer rogue = RoguePeer.tls(context(job, 2), job.hosts.get(1).port())) {
            assertEquals(ErrorCode.H1611, codeOf(rank));
        }
    }

    @Test
    void serverCertificateWhoseSanDoesNotMatchTheDialedHostIsRefusedWithH1611() throws Exception {
        TestJob job = new TestJob(2);
        // Rank 1's certificate names another host than the host list's 127.0.0.1.
        RankCredentials wrongHost = job.ca.issueRankCertificate(job.job, 1, "127.0.0.2", Instant.now());
        SSLContext server = TlsSockets.context(job.job, 2, job.ca.certificate(), wrongHost);
        try (SSLServerSocket listener = TlsSockets.listen(server, job.hosts.get(1).port(), 50, null)) {
            listener.setSoTimeout(15_000);
            CompletableFuture<SperliException> rank0 = CompletableFuture.supplyAsync(() -> {
                try (RankRuntime rt = RankRuntime.connect(job.config(0))) {
                    return null;
                } catch (SperliException e) {
                    return e;
                }
            });
            try (SSLSocket accepted = (SSLSocket) listener.accept()) {
                accepted.setSoTimeout(15_000);
                try {
                    accepted.startHandshake();
                    accepted.getInputStream().read();
                } catch (Exception expected) {
                    // the dialing rank refuses the server certificate
                }
            }
            SperliException e = rank0.get(30, TimeUnit.SECONDS);
            assertNotNull(e);
            assertEquals(ErrorCode.H1611, e.code());
        }
    }

    @Test
    void tokenForAnotherRankIsRefusedWithH1614() throws Exception {
        TestJob job = new TestJob(2);
        var rank = rank1(job);
        try (RoguePeer rogue = helloAsRank0(job, job.token(1))) {
            assertRefusedWith(ErrorCode.H1614, job, rank, rogue);
        }
    }

    @Test
    void tokenOfAnotherJobIsRefusedWithH1614() throws Exception {
        TestJob job = new TestJob(2);
        TestJob other = new TestJob(2);
        var rank = rank1(job);
        try (RoguePeer rogue = helloAsRank0(job, other.token(0))) {
            assertRefusedWith(ErrorCode.H1614, job, rank, rogue);
        }
    }

    @Test
    void expiredTokenIsRefusedWithH1614() throws Exception {
        TestJob job = new TestJob(2);
        var rank = rank1(job);
        byte[] expired = JoinTokens.sign(JoinToken.unsigned(job.job, 0, 2, job.incarnation,
                System.currentTimeMillis() - 1, "127.0.0.1"), TestJob.jobKey().secretKey());
        try (RoguePeer rogue = helloAsRank0(job, expired)) {
            assertRefusedWith(ErrorCode.H1614, job, rank, rogue);
        }
    }

    @Test
    void frameBeforeHelloIsRefusedWithH1614() throws Exception {
        TestJob job = new TestJob(2);
        var rank = rank1(job);
        try (RoguePeer rogue = RoguePeer.tls(context(job, 0), job.hosts.get(1).port())) {
            rogue.send(data(job, 0, 0, 1, 5), new byte[0]);
            assertRefusedWith(ErrorCode.H1614, job, rank, rogue);
        }
    }

    @Test
    void secondHelloIsRefusedWithH1614() throws Exception {
        TestJob job = new TestJob(2);
        var rank = rank1(job);
        try (RoguePeer rogue = helloAsRank0(job, job.token(0))) {
            rogue.sendHello(job, 0, 1, job.token(0));
            assertRefusedWith(ErrorCode.H1614, job, rank, rogue);
        }
    }

    @Test
    void frameWhoseSourceIsNotTheAuthenticatedRankIsRefusedWithH1610() throws Exception {
        TestJob job = new TestJob(3);
        var rank = rank1(job);
        // rank 1 of 3 also dials rank 2; nobody listens there, which is fine while the refusal comes first
        try (RoguePeer rogue = helloAsRank0(job, job.token(0))) {
            rogue.send(new FrameHeader(1, FrameType.DATA.code(), 0, 0, 0, job.job, 2, 1, 1, 5, 0), new byte[1]);
            assertRefusedWith(ErrorCode.H1610, job, rank, rogue);
        }
    }

    @Test
    void lengthOverTheMaximumIsRefusedWithH1610BeforeThePayload() throws Exception {
        TestJob job = new TestJob(2);
        var rank = rank1(job);
        try (RoguePeer rogue = helloAsRank0(job, job.token(0))) {
            rogue.send(data(job, 16_777_217L, 0, 1, 5), new byte[0]);
            assertRefusedWith(ErrorCode.H1610, job, rank, rogue);
        }
    }

    @Test
    void reservedTagOnDataIsRefusedWithH1610() throws Exception {
        TestJob job = new TestJob(2);
        var rank = rank1(job);
        try (RoguePeer rogue = helloAsRank0(job, job.token(0))) {
            rogue.send(data(job, 0, 0, 1, 0x8000_0000L), new byte[0]);
            assertRefusedWith(ErrorCode.H1610, job, rank, rogue);
        }
    }

    @Test
    void futureIncarnationIsRefusedWithH1610() throws Exception {
        TestJob job = new TestJob(2);
        var rank = rank1(job);
        try (RoguePeer rogue = helloAsRank0(job, job.token(0))) {
            rogue.send(data(job, 0, 0, 2, 5), new byte[0]);
            assertRefusedWith(ErrorCode.H1610, job, rank, rogue);
        }
    }

    @Test
    void oldIncarnationIsDroppedAndTheConnectionStaysUp() throws Exception {
        TestJob job = new TestJob(2, 2, 5000);
        var rank = rank1(job);
        try (RoguePeer rogue = helloAsRank0(job, job.token(0))) {
            byte[] stale = "stale".getBytes(StandardCharsets.UTF_8);
            rogue.send(data(job, stale.length, 0, 1, 5), stale);
            rogue.send(data(job, 1, 0, 1, 0x8000_0000L), new byte[1]);
            byte[] fresh = "fresh".getBytes(StandardCharsets.UTF_8);
            rogue.send(data(job, fresh.length, 0, 2, 5), fresh);
            assertEquals("fresh", rank.get(30, TimeUnit.SECONDS).get());
        }
    }

    @Test
    void silentPeerIsLostWithinTheSilenceLimitPlusOneSecond() throws Exception {
        TestJob job = new TestJob(2, 1, 2000);
        var rank = rank1(job);
        try (RoguePeer rogue = helloAsRank0(job, job.token(0))) {
            assertNotNull(rogue.readUntil(FrameType.HELLO));
            long start = System.nanoTime();
            assertEquals(ErrorCode.H1613, codeOf(rank));
            long ms = (System.nanoTime() - start) / 1_000_000;
            assertTrue(ms <= 3000 + 500, "lost after " + ms + " ms");
        }
    }

    @Test
    void closeWithoutByeIsALostPeer() throws Exception {
        TestJob job = new TestJob(2);
        var rank = rank1(job);
        RoguePeer rogue = helloAsRank0(job, job.token(0));
        assertNotNull(rogue.readUntil(FrameType.HELLO));
        rogue.close();
        assertEquals(ErrorCode.H1613, codeOf(rank));
    }

    private static void realRank0SendsAndRank1Receives(TestJob job, CompletableFuture<TestJob.Outcome<String>> rank)
            throws Exception {
        try (RankRuntime rt = RankRuntime.connect(job.config(0))) {
            rt.send(1, 5, "after the stranger".getBytes(StandardCharsets.UTF_8));
        }
        assertEquals("after the stranger", rank.get(30, TimeUnit.SECONDS).get());
    }

    private static final class TrustAll implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
