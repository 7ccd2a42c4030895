/**
 * The rank daemon {@code sperli-rankd}: the command line, the job description from standard input, its validation,
 * the open-file limit its connections need ({@code OpenFileLimit}), the owner-only directory of PEM texts, the rank's
 * life from connecting to BYE, the operator's stop, and the one exit-code policy
 * ({@link org.sperli.jobspec.RankExit}). Nothing here prints the description, a key or a token.
 */
package org.sperli.rankd;
