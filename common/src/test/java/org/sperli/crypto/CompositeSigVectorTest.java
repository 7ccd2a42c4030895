package org.sperli.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The IETF vector (draft-ietf-lamps-pq-composite-sigs-19) against {@link CompositeSig}: interoperability. */
class CompositeSigVectorTest {
    private static final byte[] EMPTY = new byte[0];
    /** First byte of the Ed25519 half of a signature. */
    private static final int ED25519_SIGNATURE_OFFSET = 2420;

    private static CompsigVectors v;

    @BeforeAll
    static void load() {
        v = CompsigVectors.load();
    }

    @Test
    void vectorHasTheRawSizesOfTheDraft() {
        assertEquals(CompositeSig.PUBLIC_KEY_LENGTH, v.pk().length);
        assertEquals(CompositeSig.SECRET_KEY_LENGTH, v.sk().length);
        assertEquals(CompositeSig.SIGNATURE_LENGTH, v.s().length);
        assertEquals(CompositeSig.SIGNATURE_LENGTH, v.sWithContext().length);
        assertEquals("The quick brown fox jumps over the lazy dog.", new String(v.m(), StandardCharsets.US_ASCII));
        assertEquals(71, v.ctx().length);
    }

    @Test
    void signatureWithEmptyContextVerifies() {
        assertTrue(CompositeSig.verify(v.pk(), v.m(), v.s(), EMPTY));
    }

    @Test
    void signatureWithContextVerifiesWithThatContext() {
        assertTrue(CompositeSig.verify(v.pk(), v.m(), v.sWithContext(), v.ctx()));
    }

    @Test
    void signatureIsBoundToItsContext() {
        assertFalse(CompositeSig.verify(v.pk(), v.m(), v.s(), v.ctx()));
        assertFalse(CompositeSig.verify(v.pk(), v.m(), v.sWithContext(), EMPTY));
        assertFalse(CompositeSig.verify(v.pk(), v.m(), v.s(), CompositeSig.CONTEXT_JOIN));
    }

    @Test
    void changedMessageFails() {
        byte[] changed = v.m().clone();
        changed[changed.length - 1] ^= 1;
        assertFalse(CompositeSig.verify(v.pk(), changed, v.s(), EMPTY));
    }

    @Test
    void flippedBitInTheMlDsaHalfFails() {
        byte[] s = v.s().clone();
        s[100] ^= 0x10;
        assertFalse(CompositeSig.verify(v.pk(), v.m(), s, EMPTY));
    }

    @Test
    void flippedBitInTheEd25519HalfFails() {
        byte[] s = v.s().clone();
        s[ED25519_SIGNATURE_OFFSET + 10] ^= 0x01;
        assertFalse(CompositeSig.verify(v.pk(), v.m(), s, EMPTY));
    }

    @Test
    void flippedBitInEitherHalfOfThePublicKeyFails() {
        byte[] mldsa = v.pk().clone();
        mldsa[7] ^= 0x01;
        assertFalse(CompositeSig.verify(mldsa, v.m(), v.s(), EMPTY));
        byte[] ed = v.pk().clone();
        ed[1312 + 3] ^= 0x01;
        assertFalse(CompositeSig.verify(ed, v.m(), v.s(), EMPTY));
    }

    @Test
    void signatureOfWrongLengthIsFalseNotAnException() {
        assertFalse(CompositeSig.verify(v.pk(), v.m(), Arrays.copyOf(v.s(), 2483), EMPTY));
        assertFalse(CompositeSig.verify(v.pk(), v.m(), Arrays.copyOf(v.s(), 2485), EMPTY));
        assertFalse(CompositeSig.verify(v.pk(), v.m(), EMPTY, EMPTY));
    }

    @Test
    void vectorSecretKeyGivesVectorPublicKey() {
        assertArrayEquals(v.pk(), CompositeSig.publicKeyOf(v.sk()));
    }

    @Test
    void vectorSecretKeySignsWhatTheVectorPublicKeyVerifies() {
        byte[] signature = CompositeSig.sign(v.sk(), v.m(), v.ctx());
        assertTrue(CompositeSig.verify(v.pk(), v.m(), signature, v.ctx()));
    }
}
