/**
 * Checkpoint files of v1: the rank file header, the COMMIT file, their checks (H1619 to H1623), the epoch directory
 * layout, and the durable file work of a rank's checkpoint directory (write to a temporary name, fsync, rename,
 * fsync the directory; streaming reads that hash as they go), plus the resume choice over what a directory holds.
 *
 * <p>Frames and peers are not known here: the procedure that moves these files between ranks lives in
 * {@code org.sperli.runtime}. The COMMIT signature is made and checked here too
 * ({@link org.sperli.checkpoint.CommitSignatures}, with the job key's CompositeSig from {@code org.sperli.crypto}).
 * States are
 * hashed as they stream and never held whole in memory, because they may be large.
 */
package org.sperli.checkpoint;
