/**
 * Who a rank is and whom it talks to: the job CA and the rank certificates it issues, the checks of a peer's
 * certificate (subject, SAN), the JDK TLS contexts of a rank, and the identity checks of a job description. It builds
 * on the formats below it: the job description and join tokens ({@code org.sperli.jobspec}), keys and signatures
 * ({@code org.sperli.crypto}).
 *
 * <p>Refusals carry H1611 (peer identity), H1614 (join token, through {@code JoinTokens}), H1615 (refused host) and
 * H1616 (job description).
 * Nothing here imports Bouncy Castle (that is {@code org.sperli.crypto}) or Netty (that is the transport), and nothing
 * here does I/O; keys, tokens and PEM texts are never logged or put into an exception message.
 */
package org.sperli.identity;
