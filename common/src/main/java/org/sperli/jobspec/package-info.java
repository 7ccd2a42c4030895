/**
 * The contract between a rank and its launcher: the job description it is started with on standard input, the join
 * token inside it with its signature by the job key ({@link org.sperli.jobspec.JoinTokens}), the host syntax both rely
 * on and the refused-host policy; and what the rank says back: its phase lines ({@link org.sperli.jobspec.RankPhase})
 * and its exit status ({@link org.sperli.jobspec.RankExit}), which rankd and the launcher both read from here.
 *
 * <p>Checks with H1616 (description), H1614 (token) and H1615 (refused host). The one cryptographic step is the
 * token's signature (CompositeSig, from {@code org.sperli.crypto}); PEM parsing and certificate checks belong to
 * {@code org.sperli.identity}.
 * The only I/O is reading: the description from standard input and the operator's deny file in
 * {@link org.sperli.jobspec.RefusedHostPolicy}. Nothing here writes a description anywhere, and nothing prints its
 * secrets.
 */
package org.sperli.jobspec;
