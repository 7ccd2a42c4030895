package org.sperli.jobspec;

import java.nio.ByteBuffer;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.crypto.CompositeSig;
import org.sperli.protocol.JobId;

/**
 * Signing and verifying join tokens (tables section 3): the launcher signs each rank's token with the job key, context
 * {@code SPERLI-JOIN-1}; the receiver of a HELLO verifies it with the job public key and compares every field with
 * what it knows. Every refusal is H1614 and names the field, the token's value and the expected one.
 */
public final class JoinTokens {
    private JoinTokens() {
    }

    /** The bytes of {@code unsigned} signed with the job's 64-byte CompositeSig secret key. */
    public static byte[] sign(JoinToken unsigned, byte[] secretKey) {
        return sign(unsigned, CompositeSig.signer(secretKey));
    }

    /** As {@link #sign(JoinToken, byte[])}, with the job key made ready once for all of a launch's tokens. */
    public static byte[] sign(JoinToken unsigned, CompositeSig.Signer jobKey) {
        byte[] signature = jobKey.sign(unsigned.signedPart(), CompositeSig.CONTEXT_JOIN);
        return unsigned.withSignature(signature).toBytes();
    }

    /**
     * Decodes and verifies a token received in a HELLO, in this order: structure (by {@link JoinToken#read}), the
     * signature under the job public key, job id, rank equal to the frame header's and to the peer certificate's, size,
     * incarnation, host equal to the host-list entry of that rank, and expiry later than {@code nowEpochMs} (a token
     * that expires at this very millisecond is refused). The signature comes first so that no field of a forged token
     * is ever reported as if it meant something.
     *
     * @return the verified token
     */
    public static JoinToken verify(byte[] tokenBytes, byte[] jobPublicKey, JobId job, int headerRank, int certRank,
                                   int size, long incarnation, String expectedHost, long nowEpochMs) {
        JoinToken token = JoinToken.read(ByteBuffer.wrap(tokenBytes));
        if (!CompositeSig.verify(jobPublicKey, token.signedPart(), token.signature(), CompositeSig.CONTEXT_JOIN)) {
            throw refuse("signature does not verify under the job public key");
        }
        if (!token.jobId().equals(job)) {
            throw refuse("job id=" + token.jobId() + ", expected " + job);
        }
        long header = Integer.toUnsignedLong(headerRank);
        if (token.rank() != header) {
            throw refuse("rank=" + token.rank() + ", expected the HELLO header's source rank " + header);
        }
        if (token.rank() != certRank) {
            throw refuse("rank=" + token.rank() + ", expected the peer certificate's rank " + certRank);
        }
        if (token.size() != size) {
            throw refuse("size=" + token.size() + ", expected " + size);
        }
        if (token.incarnation() != incarnation) {
            throw refuse("incarnation=" + token.incarnation() + ", expected " + incarnation);
        }
        if (!token.host().equals(expectedHost)) {
            throw refuse("host=" + token.host() + ", expected the host-list entry of rank " + token.rank() + ": "
                    + expectedHost);
        }
        if (Long.compareUnsigned(token.expiryMs(), nowEpochMs) <= 0) {
            throw refuse("expiryMs=" + Long.toUnsignedString(token.expiryMs()) + ", expected later than now="
                    + nowEpochMs);
        }
        return token;
    }

    private static SperliException refuse(String reason) {
        return new SperliException(ErrorCode.H1614, "join token: " + reason);
    }
}
