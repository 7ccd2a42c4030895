/**
 * The user's job in a rank: loading its jar (the SHA-256 the launcher names, the {@code Sperli-Job} manifest
 * attribute, a class loader of the job's own whose parent is rankd's loader, the job's constructor), running it, and
 * how its end reads as a rank's exit status and last line ({@link org.sperli.rankd.job.ProgramEnd}), which the test
 * kit reports alike. Nothing here connects or reads the job description.
 */
package org.sperli.rankd.job;
