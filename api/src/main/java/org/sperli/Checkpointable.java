package org.sperli;

import java.io.IOException;
import java.io.OutputStream;

/**
 * A state that can be checkpointed: it writes its bytes, and the program rebuilds it from
 * {@link Communicator#restored()} after a restart. Handles, connections and files do not implement it, so passing one
 * to {@link Communicator#checkpoint} does not compile.
 */
@FunctionalInterface
public interface Checkpointable {
    /** Writes the state's bytes; called once per checkpoint on the calling thread. */
    void writeCheckpoint(OutputStream out) throws IOException;
}
