package org.sperli.crypto;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.KeyPair;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The lightweight Ed25519 checks of a rank's own identity accept only the real signer and the real key pair. */
class Ed25519ChecksTest {
    private static final SecureRandom RANDOM = new SecureRandom();
    private final KeyPair caPair = Ed25519Keys.generate(RANDOM);
    private final X509Certificate ca = OddCertificates.selfSignedCa("CN=test-ca", caPair);
    private final KeyPair leafPair = Ed25519Keys.generate(RANDOM);
    private final X509Certificate leaf = OddCertificates.leaf(ca, caPair.getPrivate(), "CN=leaf",
            leafPair.getPublic(), List.of("node.example"), List.of());

    @Test
    void aCertificateIsSignedByItsIssuersKeyOnly() {
        assertTrue(Ed25519Checks.signedBy(leaf, caPair.getPublic()));
        assertTrue(Ed25519Checks.signedBy(ca, caPair.getPublic()));
        assertFalse(Ed25519Checks.signedBy(leaf, leafPair.getPublic()));
        assertFalse(Ed25519Checks.signedBy(leaf, Ed25519Keys.generate(RANDOM).getPublic()));
    }

    @Test
    void aCertificateOfAnotherSignatureAlgorithmIsNotSignedInTheSense() {
        KeyPair ecCa = OddCertificates.keyPair("EC");
        X509Certificate ecIssued = OddCertificates.leaf(OddCertificates.selfSignedCa("CN=ec-ca", ecCa),
                ecCa.getPrivate(), "CN=leaf", leafPair.getPublic(), List.of("node.example"), List.of());
        assertFalse(Ed25519Checks.signedBy(ecIssued, ecCa.getPublic()));
        assertFalse(Ed25519Checks.signedBy(leaf, ecCa.getPublic()));
    }

    @Test
    void aPrivateKeyPairsOnlyWithItsOwnPublicKey() {
        assertTrue(Ed25519Checks.pairOf(leafPair.getPrivate(), leafPair.getPublic()));
        assertTrue(Ed25519Checks.pairOf(leafPair.getPrivate(), leaf.getPublicKey()));
        assertFalse(Ed25519Checks.pairOf(leafPair.getPrivate(), caPair.getPublic()));
        KeyPair ec = OddCertificates.keyPair("EC");
        assertFalse(Ed25519Checks.pairOf(ec.getPrivate(), leafPair.getPublic()));
        assertFalse(Ed25519Checks.pairOf(leafPair.getPrivate(), ec.getPublic()));
    }
}
