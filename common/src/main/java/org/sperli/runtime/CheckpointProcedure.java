package org.sperli.runtime;

import org.sperli.checkpoint.EpochStore;

/**
 * A procedure of one rank's checkpoints ({@link CheckpointRound}, {@link ResumeDriver}, {@link BuddyExchange}): each
 * talks to its peers through the same frame link and CKPT link and keeps files in the same epoch store, as this rank
 * of a job of this size.
 */
abstract class CheckpointProcedure {
    final FrameLink frames;
    final CkptLink link;
    final EpochStore store;
    final int rank;
    final int size;

    CheckpointProcedure(FrameLink frames, CkptLink link, EpochStore store) {
        this.frames = frames;
        this.link = link;
        this.store = store;
        this.rank = frames.rank();
        this.size = frames.size();
    }

    /** A procedure run within {@code outer} (the buddy exchange of a resume), over the same links and store. */
    CheckpointProcedure(CheckpointProcedure outer) {
        this(outer.frames, outer.link, outer.store);
    }
}
