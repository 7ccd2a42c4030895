/**
 * Checkpoint files of v1: the rank file header, the COMMIT file, their checks (H1619 to H1623) and the epoch
 * directory layout.
 *
 * <p>Codecs and pure functions on buffers and paths; no file is opened here and no signature is verified (the
 * COMMIT signature belongs to {@code org.sperli.identity}). States are hashed in place and never copied, because they
 * may be large.
 */
package org.sperli.checkpoint;
