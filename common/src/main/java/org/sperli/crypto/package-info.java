/**
 * The cryptographic building blocks of SPERLI: {@link org.sperli.crypto.CompositeSig} (the job key of join tokens and
 * COMMIT files), SHA-256, PEM text, Ed25519 keys and the X.509 certificate builder, and the owner-only directory that
 * holds a rank's key material on disk.
 *
 * <p>This is the <em>only</em> package that imports Bouncy Castle. Everything it hands out is a JDK type
 * ({@code byte[]}, {@link java.security.cert.X509Certificate}, {@link java.security.PrivateKey}), so the identity,
 * transport and checkpoint code stays free of Bouncy Castle and the provider never has to be registered globally
 * (a global registration would change which provider the JDK's TLS stack picks for Ed25519).
 *
 * <p>No new cryptography lives here: CompositeSig is the IETF LAMPS composite of ML-DSA-44 and Ed25519 as implemented
 * by Bouncy Castle (and by AWS-LC where ACCP runs); TLS keys and certificates are plain Ed25519 (RFC 8410), made with
 * Bouncy Castle and used by the JDK's TLS stack as JDK keys.
 */
package org.sperli.crypto;
