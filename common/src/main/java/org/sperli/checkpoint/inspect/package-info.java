/**
 * Reading a checkpoint directory as a resume would, without changing it: every job, epoch, rank file, buddy copy and
 * COMMIT with its verdict and H code, and the epoch a resume picks ({@link org.sperli.checkpoint.inspect.Inspector}).
 * {@code sperli inspect-checkpoint} renders the result. The rules are the resume's own: the rank file check
 * ({@code RankFileReader}), the COMMIT check ({@code CommitSignatures}) and the choice of epoch ({@code ResumeChoice})
 * are called here, not copied.
 *
 * <p>Unlike the codecs of {@code org.sperli.checkpoint}, this package opens files, but only for reading, never
 * through a symbolic link below the directory given, and never reads more of a rank file than its header names
 * (states are hashed as a stream). The report types are plain records of strings, numbers and enums, so that the
 * launcher serialises them with Jackson unchanged.
 */
package org.sperli.checkpoint.inspect;
