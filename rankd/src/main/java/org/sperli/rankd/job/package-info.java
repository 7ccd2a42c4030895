/**
 * Loading the user's job jar: the SHA-256 the launcher names, the {@code Sperli-Job} manifest attribute, a class
 * loader of the job's own whose parent is rankd's loader, and the job's constructor. Nothing here connects, reads
 * the job description or decides an exit status.
 */
package org.sperli.rankd.job;
