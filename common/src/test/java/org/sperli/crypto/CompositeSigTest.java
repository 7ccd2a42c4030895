package org.sperli.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Sign, verify and raw keys of {@link CompositeSig} with fresh keys. */
class CompositeSigTest {
    private static final byte[] MESSAGE = "join token signed part".getBytes(StandardCharsets.US_ASCII);

    private static CompositeSig.KeyPair pair;

    @BeforeAll
    static void generate() {
        pair = CompositeSig.generate(new SecureRandom());
    }

    @Test
    void contextsAreTheSpecStrings() {
        assertEquals("SPERLI-JOIN-1", new String(CompositeSig.CONTEXT_JOIN, StandardCharsets.US_ASCII));
        assertEquals("SPERLI-COMMIT-1", new String(CompositeSig.CONTEXT_COMMIT, StandardCharsets.US_ASCII));
    }

    @Test
    void generatedKeysHaveTheRawLengths() {
        assertEquals(1344, pair.publicKey().length);
        assertEquals(64, pair.secretKey().length);
    }

    @Test
    void signatureIs2484BytesAndVerifiesUnderItsContext() {
        byte[] signature = CompositeSig.sign(pair.secretKey(), MESSAGE, CompositeSig.CONTEXT_JOIN);
        assertEquals(2484, signature.length);
        assertTrue(CompositeSig.verify(pair.publicKey(), MESSAGE, signature, CompositeSig.CONTEXT_JOIN));
    }

    @Test
    void aSignerMadeReadyOnceSignsManyMessagesThatVerify() {
        CompositeSig.Signer signer = CompositeSig.signer(pair.secretKey());
        for (int i = 0; i < 3; i++) {
            byte[] message = (new String(MESSAGE, StandardCharsets.US_ASCII) + i).getBytes(StandardCharsets.US_ASCII);
            byte[] signature = signer.sign(message, CompositeSig.CONTEXT_COMMIT);
            assertEquals(2484, signature.length);
            assertTrue(CompositeSig.verify(pair.publicKey(), message, signature, CompositeSig.CONTEXT_COMMIT));
            assertFalse(CompositeSig.verify(pair.publicKey(), MESSAGE, signature, CompositeSig.CONTEXT_COMMIT));
        }
        assertThrows(IllegalArgumentException.class, () -> signer.sign(MESSAGE, new byte[256]));
        assertThrows(IllegalArgumentException.class, () -> CompositeSig.signer(new byte[63]));
        assertFalse(signer.toString().contains(HexFormat.of().formatHex(pair.secretKey()).substring(0, 16)));
    }

    @Test
    void mlDsaSignedByAwsLcVerifiesInBouncyCastleUnderTheSameKey() {
        CompositeSig.Signer signer = CompositeSig.signer(pair.secretKey(), true);
        assumeTrue(signer.mlDsaIsNative(), "ACCP's native library does not load here: nothing to compare");
        assertTrue(signer.toString().contains("AWS-LC"), signer.toString());
        for (byte[] ctx : new byte[][] {CompositeSig.CONTEXT_JOIN, CompositeSig.CONTEXT_COMMIT, new byte[0]}) {
            byte[] signature = signer.sign(MESSAGE, ctx);
            assertEquals(2484, signature.length);
            assertTrue(CompositeSig.verify(pair.publicKey(), MESSAGE, signature, ctx, false));
            byte[] otherMessage = Arrays.copyOf(MESSAGE, MESSAGE.length + 1);
            assertFalse(CompositeSig.verify(pair.publicKey(), otherMessage, signature, ctx, false));
        }
        byte[] join = signer.sign(MESSAGE, CompositeSig.CONTEXT_JOIN);
        assertFalse(CompositeSig.verify(pair.publicKey(), MESSAGE, join, CompositeSig.CONTEXT_COMMIT, false));
        byte[] mlDsaHalfOfAnotherKey = CompositeSig.signer(CompositeSig.generate(new SecureRandom()).secretKey(), true)
                .sign(MESSAGE, CompositeSig.CONTEXT_JOIN);
        System.arraycopy(join, 2420, mlDsaHalfOfAnotherKey, 2420, 64);
        assertFalse(CompositeSig.verify(pair.publicKey(), MESSAGE, mlDsaHalfOfAnotherKey, CompositeSig.CONTEXT_JOIN,
                false),
                "an ML-DSA half made with another seed must not verify");
    }

    @Test
    void theEd25519HalfSignedByAwsLcIsTheOneJavaSigns() {
        CompositeSig.Signer nativeSigner = CompositeSig.signer(pair.secretKey(), true);
        assumeTrue(nativeSigner.ed25519IsNative(), "ACCP's native library does not load here: nothing to compare");
        assertTrue(nativeSigner.toString().contains("Ed25519 in AWS-LC"), nativeSigner.toString());
        byte[] viaAwsLc = nativeSigner.sign(MESSAGE, CompositeSig.CONTEXT_COMMIT);
        byte[] viaJava = CompositeSig.signer(pair.secretKey()).sign(MESSAGE, CompositeSig.CONTEXT_COMMIT);
        assertArrayEquals(Arrays.copyOfRange(viaJava, 2420, 2484), Arrays.copyOfRange(viaAwsLc, 2420, 2484),
                "RFC 8032 is deterministic: the same key signs the same M' alike");
        assertTrue(CompositeSig.verify(pair.publicKey(), MESSAGE, viaAwsLc, CompositeSig.CONTEXT_COMMIT));
    }

    @Test
    void awsLcAndBouncyCastleVerifyAlikeValidTamperedAndMalformedSignatures() {
        assumeTrue(AccpCompositeVerifier.forKey(pair.publicKey()).isPresent(),
                "ACCP's native library does not load here: nothing to compare");
        byte[] valid = CompositeSig.sign(pair.secretKey(), MESSAGE, CompositeSig.CONTEXT_JOIN);
        List<byte[]> signatures = new ArrayList<>(List.of(valid, new byte[2484], filled(2484, 0xff),
                withSPlusTheGroupOrder(valid)));
        for (int i = 0; i < valid.length; i += 61) {
            signatures.add(flipped(valid, i));
        }
        for (int i : new int[] {2419, 2420, 2451, 2452, 2483}) {
            signatures.add(flipped(valid, i));
        }
        for (byte[] key : List.of(pair.publicKey(), flipped(pair.publicKey(), 7), flipped(pair.publicKey(), 1343))) {
            for (byte[] ctx : List.of(CompositeSig.CONTEXT_JOIN, CompositeSig.CONTEXT_COMMIT)) {
                for (byte[] signature : signatures) {
                    assertEquals(CompositeSig.verify(key, MESSAGE, signature, ctx, false),
                            CompositeSig.verify(key, MESSAGE, signature, ctx, true));
                }
            }
        }
        assertTrue(CompositeSig.verify(pair.publicKey(), MESSAGE, valid, CompositeSig.CONTEXT_JOIN, true));
        assertTrue(CompositeSig.verify(pair.publicKey(), MESSAGE, valid, CompositeSig.CONTEXT_JOIN, false));
        assertFalse(CompositeSig.verify(pair.publicKey(), MESSAGE, withSPlusTheGroupOrder(valid),
                CompositeSig.CONTEXT_JOIN, true), "RFC 8032: S must be below the group order");
    }

    @Test
    void awsLcVerifiesUnderEachKeyItIsGivenNotTheOneBefore() {
        assumeTrue(AccpCompositeVerifier.forKey(pair.publicKey()).isPresent(),
                "ACCP's native library does not load here: nothing to compare");
        CompositeSig.KeyPair other = CompositeSig.generate(new SecureRandom());
        byte[] signature = CompositeSig.sign(pair.secretKey(), MESSAGE, CompositeSig.CONTEXT_COMMIT);
        byte[] byOther = CompositeSig.sign(other.secretKey(), MESSAGE, CompositeSig.CONTEXT_COMMIT);

        assertTrue(CompositeSig.verify(pair.publicKey(), MESSAGE, signature, CompositeSig.CONTEXT_COMMIT, true));
        assertFalse(CompositeSig.verify(other.publicKey(), MESSAGE, signature, CompositeSig.CONTEXT_COMMIT, true));
        assertTrue(CompositeSig.verify(other.publicKey(), MESSAGE, byOther, CompositeSig.CONTEXT_COMMIT, true));
        assertFalse(CompositeSig.verify(pair.publicKey(), MESSAGE, byOther, CompositeSig.CONTEXT_COMMIT, true));
    }

    private static byte[] flipped(byte[] bytes, int index) {
        byte[] copy = bytes.clone();
        copy[index] ^= 0x01;
        return copy;
    }

    private static byte[] filled(int length, int value) {
        byte[] bytes = new byte[length];
        Arrays.fill(bytes, (byte) value);
        return bytes;
    }

    /** The signature with its Ed25519 S (little-endian, its last 32 bytes) raised by the group order L: still 256 bits. */
    private static byte[] withSPlusTheGroupOrder(byte[] signature) {
        BigInteger order = BigInteger.TWO.pow(252).add(new BigInteger("27742317777372353535851937790883648493"));
        byte[] s = Arrays.copyOfRange(signature, 2452, 2484);
        byte[] bigEndian = new byte[32];
        for (int i = 0; i < 32; i++) {
            bigEndian[i] = s[31 - i];
        }
        byte[] raised = new BigInteger(1, bigEndian).add(order).toByteArray();
        byte[] out = signature.clone();
        for (int i = 0; i < 32; i++) {
            int from = raised.length - 1 - i;
            out[2452 + i] = from >= 0 ? raised[from] : 0;
        }
        return out;
    }

    @Test
    void aSignerInJavaSaysSo() {
        assertFalse(CompositeSig.signer(pair.secretKey()).mlDsaIsNative());
        assertFalse(CompositeSig.signer(pair.secretKey()).ed25519IsNative());
        assertTrue(CompositeSig.signer(pair.secretKey()).toString().contains("Java"));
    }

    @Test
    void joinSignatureFailsUnderCommitContext() {
        byte[] signature = CompositeSig.sign(pair.secretKey(), MESSAGE, CompositeSig.CONTEXT_JOIN);
        assertFalse(CompositeSig.verify(pair.publicKey(), MESSAGE, signature, CompositeSig.CONTEXT_COMMIT));
    }

    @Test
    void signatureFailsUnderAnotherKey() {
        CompositeSig.KeyPair other = CompositeSig.generate(new SecureRandom());
        byte[] signature = CompositeSig.sign(pair.secretKey(), MESSAGE, CompositeSig.CONTEXT_JOIN);
        assertFalse(CompositeSig.verify(other.publicKey(), MESSAGE, signature, CompositeSig.CONTEXT_JOIN));
    }

    @Test
    void rawSecretKeyRoundTripsToItsRawPublicKey() {
        byte[] secret = pair.secretKey();
        assertArrayEquals(pair.publicKey(), CompositeSig.publicKeyOf(secret));
        // A key pair rebuilt from the raw bytes signs what the original public key verifies.
        CompositeSig.KeyPair rebuilt = new CompositeSig.KeyPair(CompositeSig.publicKeyOf(secret), secret);
        byte[] signature = CompositeSig.sign(rebuilt.secretKey(), MESSAGE, CompositeSig.CONTEXT_COMMIT);
        assertTrue(CompositeSig.verify(pair.publicKey(), MESSAGE, signature, CompositeSig.CONTEXT_COMMIT));
    }

    @Test
    void contextAbove255BytesIsRefusedBySignAndFalseForVerify() {
        byte[] ctx256 = new byte[256];
        assertThrows(IllegalArgumentException.class, () -> CompositeSig.sign(pair.secretKey(), MESSAGE, ctx256));
        byte[] ctx255 = new byte[255];
        byte[] signature = CompositeSig.sign(pair.secretKey(), MESSAGE, ctx255);
        assertTrue(CompositeSig.verify(pair.publicKey(), MESSAGE, signature, ctx255));
        assertFalse(CompositeSig.verify(pair.publicKey(), MESSAGE, signature, ctx256));
    }

    @Test
    void badInputToVerifyIsFalseNeverAnException() {
        byte[] signature = CompositeSig.sign(pair.secretKey(), MESSAGE, CompositeSig.CONTEXT_JOIN);
        byte[] ctx = CompositeSig.CONTEXT_JOIN;
        assertFalse(CompositeSig.verify(null, MESSAGE, signature, ctx));
        assertFalse(CompositeSig.verify(pair.publicKey(), null, signature, ctx));
        assertFalse(CompositeSig.verify(pair.publicKey(), MESSAGE, null, ctx));
        assertFalse(CompositeSig.verify(pair.publicKey(), MESSAGE, signature, null));
        assertFalse(CompositeSig.verify(Arrays.copyOf(pair.publicKey(), 1343), MESSAGE, signature, ctx));
        assertFalse(CompositeSig.verify(Arrays.copyOf(pair.publicKey(), 1345), MESSAGE, signature, ctx));
        byte[] junkKey = new byte[1344];
        Arrays.fill(junkKey, (byte) 0xff);
        assertFalse(CompositeSig.verify(junkKey, MESSAGE, signature, ctx));
        byte[] junkSignature = new byte[2484];
        Arrays.fill(junkSignature, (byte) 0xff);
        assertFalse(CompositeSig.verify(pair.publicKey(), MESSAGE, junkSignature, ctx));
    }

    @Test
    void secretKeyOfWrongLengthIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> CompositeSig.sign(new byte[63], MESSAGE, new byte[0]));
        assertThrows(IllegalArgumentException.class, () -> CompositeSig.publicKeyOf(new byte[65]));
    }

    @Test
    void keyPairToStringNeverShowsTheSecretKey() {
        String text = pair.toString();
        String hex = HexFormat.of().formatHex(pair.secretKey());
        assertFalse(text.contains(hex.substring(0, 16)), text);
        assertTrue(text.contains("redacted"), text);
    }

    @Test
    void keyPairCannotBeChangedThroughItsArrays() {
        byte[] secret = pair.secretKey();
        secret[0] ^= 1;
        assertNotEquals(secret[0], pair.secretKey()[0]);
    }
}
