package org.sperli;

import java.nio.ByteBuffer;

/**
 * The root's fold of a reduce or allreduce whose values {@link org.sperli.collective.Combine} cannot fold: values with
 * a shape, which the array type reduces ({@link ArrayType#reduce}). The collective hands the fold every rank's encoded
 * contribution in ascending rank order, the root's own in its rank's place, and sends {@link #result()} on; so the
 * result is ((c0 op c1) op c2) ... whatever the root and the timing.
 *
 * <p>A fold is made for one call and used by one thread. Anything it throws refuses the contribution and ends the job
 * like contributions of different length: ABORT reason 3 with code 1618, H1618 at the root, H1612 at the others.
 * Programs do not implement this; {@link Communicator}'s reduce and allreduce over an {@link ArrayType}
 * make one.
 */
public interface ContributionFold {
    /**
     * Folds in the contribution of {@code rank}: called for rank 0, 1, ..., size - 1 in turn. {@code contribution}
     * is read-only and valid only during the call (it may be a slice of a frame that is released afterwards).
     */
    void add(int rank, ByteBuffer contribution);

    /** The encoded result, once every rank's contribution was added. */
    byte[] result();
}
