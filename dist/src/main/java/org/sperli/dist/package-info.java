/**
 * The distribution's build step: {@link org.sperli.dist.CommandDocs} writes the man pages and the shell completion of
 * {@code sperli} from the launcher's picocli model. Nothing here ships in the tarball; the launcher never depends on
 * this package.
 */
package org.sperli.dist;
