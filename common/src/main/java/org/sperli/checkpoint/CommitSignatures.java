package org.sperli.checkpoint;

import java.nio.ByteBuffer;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.crypto.CompositeSig;
import org.sperli.protocol.JobId;

/**
 * The job key's signature on COMMIT files (tables sections 3a and 6): rank 0 signs the first 36 + 32 x size bytes
 * with context {@code SPERLI-COMMIT-1}; every rank verifies them with the job public key before an epoch counts.
 */
public final class CommitSignatures {
    private CommitSignatures() {
    }

    /** {@code unsigned} signed with the job signing key (64 raw bytes). */
    public static CommitFile sign(CommitFile unsigned, byte[] jobSigningKey) {
        return unsigned.withSignature(CompositeSig.sign(jobSigningKey, unsigned.signedPart(),
                CompositeSig.CONTEXT_COMMIT));
    }

    /**
     * Reads and verifies the COMMIT bytes from {@code commit}'s position to its limit (not moved), in this order:
     * layout (H1621), signature under {@code jobPublicKey} (H1621), then epoch and job id (H1621) and size (H1623),
     * so that a signed COMMIT of another size is H1623 and an unsigned one of another size H1621.
     */
    public static CommitFile verify(ByteBuffer commit, byte[] jobPublicKey, JobId job, long epoch, long size) {
        CommitFile file = CommitFile.read(commit);
        if (!CompositeSig.verify(jobPublicKey, file.signedPart(), file.signature(), CompositeSig.CONTEXT_COMMIT)) {
            throw new SperliException(ErrorCode.H1621, "COMMIT of epoch " + file.epoch()
                    + ": the signature does not verify with the job public key");
        }
        file.expect(job, epoch, size);
        return file;
    }
}
