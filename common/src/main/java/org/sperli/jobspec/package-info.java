/**
 * The bytes a rank is started with: the job description on standard input, the join token inside it with its
 * signature by the job key ({@link org.sperli.jobspec.JoinTokens}), the host syntax both rely on, and the
 * refused-host policy.
 *
 * <p>Checks with H1616 (description), H1614 (token) and H1615 (refused host). The one cryptographic step is the
 * token's signature (CompositeSig, from {@code org.sperli.crypto}); PEM parsing and certificate checks belong to
 * {@code org.sperli.identity}.
 * The only I/O is reading: the description from standard input and the operator's deny file in
 * {@link org.sperli.jobspec.RefusedHostPolicy}. Nothing here writes a description anywhere, and nothing prints its
 * secrets.
 */
package org.sperli.jobspec;
