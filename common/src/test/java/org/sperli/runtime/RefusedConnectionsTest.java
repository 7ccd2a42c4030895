package org.sperli.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.handler.codec.DecoderException;
import io.netty.handler.ssl.NotSslRecordException;
import java.net.InetSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.Test;

class RefusedConnectionsTest {
    private final List<String> lines = new ArrayList<>();
    private long nowNs;
    private final RefusedConnections refusals = new RefusedConnections(() -> nowNs, lines::add);
    private final InetSocketAddress stranger = new InetSocketAddress("127.0.0.1", 40000);

    @Test
    void atMostABurstOfLinesAWindowAndTheRestCountedInTheNextLine() {
        for (int i = 0; i < 50; i++) {
            refusals.refused(stranger, new SSLHandshakeException("Empty client certificate chain"));
        }
        assertEquals(RefusedConnections.BURST, lines.size(), String.join("\n", lines));
        nowNs += TimeUnit.MILLISECONDS.toNanos(RefusedConnections.WINDOW_MS);
        refusals.refused(stranger, new SSLHandshakeException("Empty client certificate chain"));
        assertEquals("refused a connection from /127.0.0.1:40000: Empty client certificate chain (and "
                + (50 - RefusedConnections.BURST) + " refused before it, not shown)", lines.get(lines.size() - 1));
        refusals.refused(stranger, new SSLHandshakeException("again"));
        assertEquals("refused a connection from /127.0.0.1:40000: again", lines.get(lines.size() - 1));
    }

    @Test
    void theReasonIsAFewWordsOnOneLineNeverNullNorTheStrangersBytes() {
        assertEquals("not a TLS record (plaintext or another protocol)", RefusedConnections.reason(
                new DecoderException(new NotSslRecordException("not an SSL/TLS record: 474554202f20"))));
        assertEquals("closed during the TLS handshake", RefusedConnections.reason(new ClosedChannelException()));
        assertEquals("IllegalStateException", RefusedConnections.reason(new IllegalStateException()));
        assertEquals("two lines", RefusedConnections.reason(new SSLHandshakeException("two\r\nlines")));
        String cut = RefusedConnections.reason(new SSLHandshakeException("x".repeat(1000)));
        assertEquals(RefusedConnections.MAX_REASON_CHARS + 3, cut.length());
        assertTrue(cut.endsWith("..."), cut);
    }
}
