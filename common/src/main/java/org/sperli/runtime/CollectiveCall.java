package org.sperli.runtime;

import org.sperli.protocol.payload.CollectiveHeader;

/**
 * One collective call of this rank: every field its frames carry in the collective header except the phase (tables
 * section 4). Frames from other ranks are checked against {@link #header} of the phase they answer.
 *
 * @param operation   1 barrier .. 6 scatter ({@link CollectiveHeader#BARRIER} ..)
 * @param elementType the element type code of reduce and allreduce, 0 for the others
 * @param reduceOp    the reduce operation code of reduce and allreduce, 0 for the others
 * @param root        the root; 0 for barrier and allreduce
 * @param sequence    this rank's call number, from 1, refused calls included
 */
record CollectiveCall(int operation, int elementType, int reduceOp, long root, long sequence) {
    private static final String[] NAMES = {"?", "barrier", "bcast", "reduce", "allreduce", "gather", "scatter"};

    /** The header of this call's frames in {@code phase} ({@link CollectiveHeader#TOWARD_ROOT} or FROM_ROOT). */
    CollectiveHeader header(int phase) {
        return new CollectiveHeader(operation, elementType, reduceOp, phase, root, sequence);
    }

    /** For messages: {@code "reduce #3"}. */
    @Override
    public String toString() {
        return NAMES[operation] + " #" + Long.toUnsignedString(sequence);
    }
}
