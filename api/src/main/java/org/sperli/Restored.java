package org.sperli;

/**
 * The state a rank resumed from after a restart: the epoch of the COMMIT that was resumed and this rank's bytes of it,
 * exactly as its {@link Checkpointable} wrote them.
 */
public record Restored(long epoch, byte[] state) {
}
