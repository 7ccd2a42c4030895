package org.sperli.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS 1.3 renews its keys on a long connection (KeyUpdate; SunJSSE after 2^37 bytes of AES-GCM by default): a frame
 * whose record the engine wraps after a KeyUpdate of its own, beside the pipeline or through it, still arrives whole.
 * The key limit is read once per JVM, so the exchange runs in a JVM of its own with keys that last 8 KiB, and the
 * JDK's TLS debug output shows that keys were updated.
 */
class KeyUpdateTest {
    @TempDir
    Path dir;

    @Test
    void messagesArriveWholeWhileTlsUpdatesItsKeys() throws Exception {
        Path limits = Files.writeString(dir.resolve("short-keys.security"),
                "jdk.tls.keyLimits=AES/GCM/NoPadding KeyUpdate 2^13, ChaCha20-Poly1305 KeyUpdate 2^13\n");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.security.properties=" + limits, "-Djavax.net.debug=ssl:handshake",
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                KeyUpdateExchange.class.getName())
                .redirectErrorStream(true).start();
        CompletableFuture<String> output = CompletableFuture.supplyAsync(() -> {
            try {
                return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "cannot read the exchange's output: " + e;
            }
        });
        boolean ended = p.waitFor(90, TimeUnit.SECONDS);
        if (!ended) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        String out = output.get(10, TimeUnit.SECONDS);
        String last = out.lines().filter(l -> l.startsWith("exchanged")).findFirst().orElse("(no result line)");
        assertTrue(ended, "the exchange did not end within 90 s: " + last);
        assertEquals(0, p.exitValue(), last);
        assertEquals("exchanged " + KeyUpdateExchange.MESSAGES + " " + KeyUpdateExchange.MESSAGES, last);
        long updates = out.lines().filter(l -> l.contains("KeyUpdate")).count();
        assertTrue(updates >= 4, "the keys were updated during the exchange (" + updates + " KeyUpdate lines)");
    }
}
