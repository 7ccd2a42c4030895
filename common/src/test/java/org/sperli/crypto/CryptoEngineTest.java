package org.sperli.crypto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.crypto.Cipher;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class CryptoEngineTest {
    private final CryptoEngine.Name before = CryptoEngine.current();

    @AfterEach
    void restoreTheRunsEngine() {
        CryptoEngine.switchTo(before);
    }

    @Test
    void anUnknownEngineNameIsRefusedBeforeAnythingIsInstalled() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CryptoEngine.select("openssl", Map.of()));
        assertEquals("TLS engine 'openssl' is not one of auto, jdk, accp", e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> CryptoEngine.select(null, Map.of(CryptoEngine.VARIABLE, "fast")));
    }

    @Test
    void theJdkEngineSignsAndEncryptsWithTheJdksOwnProviders() throws Exception {
        CryptoEngine.Choice choice = CryptoEngine.switchTo(CryptoEngine.Name.JDK);
        assertEquals(CryptoEngine.Name.JDK, choice.engine());
        assertFalse(choice.fellBack());
        assertEquals("SunEC", Signature.getInstance("Ed25519").getProvider().getName());
        assertEquals("SunJCE", Cipher.getInstance("AES/GCM/NoPadding").getProvider().getName());
    }

    @Test
    void theAccpEngineMovesEd25519AndAesGcmToNativeCode() throws Exception {
        CryptoEngine.Choice choice = CryptoEngine.switchTo(CryptoEngine.Name.ACCP);
        assumeTrue(choice.engine() == CryptoEngine.Name.ACCP, "ACCP cannot run here: " + choice.note());
        assertTrue(choice.note().startsWith("TLS engine: accp (SunJSSE over AWS-LC"), choice.note());
        String accp = "AmazonCorrettoCryptoProvider";
        assertEquals(accp, Signature.getInstance("Ed25519").getProvider().getName());
        assertEquals(accp, Cipher.getInstance("AES/GCM/NoPadding").getProvider().getName());
        // A key made by either engine verifies under the other: certificates made by a launcher on one engine are
        // read by ranks on the other.
        KeyPair keys = KeyPairGenerator.getInstance("Ed25519", "SunEC").generateKeyPair();
        byte[] message = "job".getBytes(StandardCharsets.US_ASCII);
        Signature sign = Signature.getInstance("Ed25519", "SunEC");
        sign.initSign(keys.getPrivate());
        sign.update(message);
        byte[] signature = sign.sign();
        Signature verify = Signature.getInstance("Ed25519");
        verify.initVerify(keys.getPublic());
        verify.update(message);
        assertTrue(verify.verify(signature));
    }

    @Test
    void theFirstChoiceOfAProcessHoldsWhateverLaterCallsAsk() {
        CryptoEngine.Choice jdk = CryptoEngine.switchTo(CryptoEngine.Name.JDK);
        assertEquals(jdk, CryptoEngine.select("accp", Map.of()));
        assertEquals(CryptoEngine.Name.JDK, CryptoEngine.current());
    }

    @Test
    void theWaitForAccpsSelfTestsEndsAfterWhatTheCommonPoolHadQueuedBeforeIt() throws Exception {
        assumeTrue(ForkJoinPool.getCommonPoolParallelism() == 1,
                "the order holds for a common pool of one worker (2 cores); this one has "
                        + ForkJoinPool.getCommonPoolParallelism());
        CountDownLatch started = new CountDownLatch(1);
        AtomicBoolean done = new AtomicBoolean();
        ForkJoinPool.commonPool().execute(() -> {
            started.countDown();
            sleepQuietly(300);
            done.set(true);
        });
        assertTrue(started.await(10, TimeUnit.SECONDS), "the common pool ran nothing");

        CryptoEngine.awaitTaskQueuedAfterSelfTests();

        assertTrue(done.get(), "the wait ended before the task queued before it");
    }

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
