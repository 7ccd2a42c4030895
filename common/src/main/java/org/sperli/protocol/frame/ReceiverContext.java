package org.sperli.protocol.frame;

import org.sperli.protocol.JobId;
import org.sperli.protocol.Limits;

/**
 * What a receiver knows when it judges a header: its job, the job size (for the COMMIT-sized payloads), its own rank,
 * the rank authenticated on this connection and its own incarnation.
 */
public record ReceiverContext(JobId jobId, int jobSize, int ownRank, int peerRank, long incarnation) {
    public ReceiverContext {
        if (jobSize < Limits.MIN_SIZE || jobSize > Limits.MAX_SIZE) {
            throw new IllegalArgumentException("size out of range: " + jobSize);
        }
        if (ownRank < 0 || ownRank >= jobSize || peerRank < 0 || peerRank >= jobSize) {
            throw new IllegalArgumentException("rank out of range: own " + ownRank + ", peer " + peerRank);
        }
    }
}
