/**
 * Who a rank is and whom it talks to: the job CA and the rank certificates it issues, the checks of a peer's
 * certificate (subject, SAN), join tokens signed with the job key, the JDK TLS contexts of a rank, and the identity
 * checks of a job description.
 *
 * <p>Refusals carry H1611 (peer identity), H1614 (join token), H1615 (refused host) and H1616 (job description).
 * Nothing here imports Bouncy Castle (that is {@code org.sperli.crypto}) or Netty (that is the transport), and nothing
 * here does I/O; keys, tokens and PEM texts are never logged or put into an exception message.
 */
package org.sperli.identity;
