package org.sperli.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import org.junit.jupiter.api.Test;
import org.sperli.crypto.CryptoEngine;
import org.sperli.identity.TestJob;
import org.sperli.identity.TlsContexts;

/**
 * The TLS engine puts {@link PeerPipeline#RECORD_PLAINTEXT_BYTES} into a record, with either crypto engine: a size
 * that does not match costs a copy of every byte sent (see there), so a JDK that changes it fails here.
 */
class TlsRecordSizeTest {
    private static final int HANDSHAKE_STEPS = 100;

    @Test
    void aRecordHoldsTheWrapDataSizeOnEveryEngine() throws Exception {
        CryptoEngine.Name before = CryptoEngine.current();
        TestJob job = TestJob.create(List.of("node0.example", "node1.example"));
        try {
            for (CryptoEngine.Name name : CryptoEngine.Name.values()) {
                CryptoEngine.Name running = CryptoEngine.switchTo(name).engine();
                SSLEngine client = context(job, 0).createSSLEngine("node1.example", 47001);
                client.setUseClientMode(true);
                SSLEngine server = context(job, 1).createSSLEngine();
                server.setUseClientMode(false);
                handshake(client, server);
                ByteBuffer plaintext = ByteBuffer.allocate(3 * PeerPipeline.RECORD_PLAINTEXT_BYTES);
                ByteBuffer record = ByteBuffer.allocate(client.getSession().getPacketBufferSize());
                SSLEngineResult result = client.wrap(plaintext, record);
                assertEquals(PeerPipeline.RECORD_PLAINTEXT_BYTES, result.bytesConsumed(), "engine " + running);
                assertEquals(0, PayloadChunks.CHUNK_BYTES % PeerPipeline.RECORD_PLAINTEXT_BYTES);
            }
        } finally {
            CryptoEngine.switchTo(before);
        }
    }

    private static SSLContext context(TestJob job, int rank) {
        return TlsContexts.create(job.job, job.size(), job.ca.certificate(), job.credentials(rank));
    }

    /** Runs both engines' handshake in memory until neither has anything left to do. */
    private static void handshake(SSLEngine client, SSLEngine server) throws Exception {
        ByteBuffer toServer = ByteBuffer.allocate(1 << 17);
        ByteBuffer toClient = ByteBuffer.allocate(1 << 17);
        ByteBuffer sink = ByteBuffer.allocate(1 << 17);
        client.beginHandshake();
        server.beginHandshake();
        for (int i = 0; i < HANDSHAKE_STEPS && (busy(client) || busy(server)); i++) {
            step(client, toServer, toClient, sink);
            step(server, toClient, toServer, sink);
        }
        assertEquals(HandshakeStatus.NOT_HANDSHAKING, client.getHandshakeStatus());
        assertEquals(HandshakeStatus.NOT_HANDSHAKING, server.getHandshakeStatus());
    }

    private static boolean busy(SSLEngine engine) {
        return engine.getHandshakeStatus() != HandshakeStatus.NOT_HANDSHAKING;
    }

    private static void step(SSLEngine engine, ByteBuffer out, ByteBuffer in, ByteBuffer sink) throws Exception {
        switch (engine.getHandshakeStatus()) {
            case NEED_WRAP -> engine.wrap(ByteBuffer.allocate(0), out);
            case NEED_UNWRAP -> {
                in.flip();
                engine.unwrap(in, sink);
                in.compact();
            }
            case NEED_TASK -> {
                for (Runnable task = engine.getDelegatedTask(); task != null; task = engine.getDelegatedTask()) {
                    task.run();
                }
            }
            default -> {
                // finished or waiting for the other side
            }
        }
    }
}
