package org.sperli.rankd;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** How the watch of a rank's standard input says that it ended, and that it never asks a pipe what it holds. */
class LauncherWatchTest {
    /** Bytes, then a read error: a stream as a broken pipe or channel gives one. */
    private static InputStream failingAfter(String bytes, String reason) {
        ByteArrayInputStream first = new ByteArrayInputStream(bytes.getBytes(StandardCharsets.US_ASCII));
        return new InputStream() {
            @Override
            public int read() throws IOException {
                int b = first.read();
                if (b < 0) {
                    throw new IOException(reason);
                }
                return b;
            }
        };
    }

    /** A stream that answers {@code available()} as a channel's stream on a pipe does on JDK 17. */
    private static InputStream pipeLike(String bytes) {
        ByteArrayInputStream content = new ByteArrayInputStream(bytes.getBytes(StandardCharsets.US_ASCII));
        return new InputStream() {
            @Override
            public int read() {
                return content.read();
            }

            @Override
            public int read(byte[] b, int off, int len) {
                return content.read(b, off, len);
            }

            @Override
            public int available() throws IOException {
                throw new IOException("Illegal seek");
            }
        };
    }

    @Test
    void theEndOfStandardInputIsSaidAsItsClose() {
        assertEquals("standard input closed", LauncherWatch.drain(new ByteArrayInputStream(new byte[300])));
    }

    @Test
    void aReadErrorIsSaidAsSuchWithItsReason() {
        assertEquals("standard input failed: Input/output error",
                LauncherWatch.drain(failingAfter("xyz", "Input/output error")));
    }

    @Test
    void bytesAfterTheLineAreDroppedWithoutAskingThePipeWhatItHolds() throws IOException {
        StdinBuffer input = new StdinBuffer(pipeLike("ab\n" + "garbage".repeat(100)));
        assertEquals('a', input.read());
        assertEquals('b', input.read());
        assertEquals('\n', input.read());
        assertEquals("standard input closed", LauncherWatch.drain(input));
    }
}
