package org.sperli.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.KeyPair;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.interfaces.EdECPrivateKey;
import java.security.interfaces.EdECPublicKey;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Ed25519 keys made with Bouncy Castle come out as matching JDK keys. */
class Ed25519KeysTest {
    private static final byte[] MESSAGE = {1, 2, 3};

    @Test
    void keysAreJdkEd25519Keys() {
        KeyPair pair = Ed25519Keys.generate(new SecureRandom());
        assertEquals("Ed25519", assertInstanceOf(EdECPublicKey.class, pair.getPublic()).getParams().getName());
        assertEquals("Ed25519", assertInstanceOf(EdECPrivateKey.class, pair.getPrivate()).getParams().getName());
        assertEquals(48, pair.getPrivate().getEncoded().length, "PKCS#8 v1 of RFC 8410");
    }

    @Test
    void publicKeyBelongsToThePrivateKeyUnderTheJdkProvider() throws Exception {
        KeyPair pair = Ed25519Keys.generate(new SecureRandom());
        Signature signer = Signature.getInstance("Ed25519");
        signer.initSign(pair.getPrivate());
        signer.update(MESSAGE);
        byte[] signature = signer.sign();
        Signature verifier = Signature.getInstance("Ed25519");
        verifier.initVerify(pair.getPublic());
        verifier.update(MESSAGE);
        assertTrue(verifier.verify(signature));
    }

    @Test
    void everyCallMakesAFreshKey() {
        SecureRandom random = new SecureRandom();
        KeyPair a = Ed25519Keys.generate(random);
        KeyPair b = Ed25519Keys.generate(random);
        assertFalse(Arrays.equals(a.getPrivate().getEncoded(), b.getPrivate().getEncoded()));
        assertFalse(Arrays.equals(a.getPublic().getEncoded(), b.getPublic().getEncoded()));
        assertArrayEquals(a.getPublic().getEncoded(), a.getPublic().getEncoded());
    }
}
