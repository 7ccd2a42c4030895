package org.sperli.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.checkpoint.CommitFile;
import org.sperli.crypto.CompositeSig;
import org.sperli.jobspec.JobSpecSamples;
import org.sperli.protocol.CommitLayout;
import org.sperli.protocol.JobId;

class CommitSignaturesTest {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final CompositeSig.KeyPair KEY = CompositeSig.generate(RANDOM);
    private static final JobId JOB = JobSpecSamples.JOB;

    private static byte[] signed(long epoch, int size, byte[] secretKey) {
        List<byte[]> hashes = Collections.nCopies(size, new byte[32]);
        return CommitSignatures.sign(CommitFile.unsigned(epoch, JOB, hashes), secretKey).toBytes();
    }

    private static void refused(ErrorCode code, Executable e) {
        SperliException ex = assertThrows(SperliException.class, e);
        assertEquals(code, ex.code(), ex.getMessage());
    }

    @Test
    void aCommitSignedWithTheJobKeyVerifies() {
        CommitFile commit = CommitSignatures.verify(ByteBuffer.wrap(signed(4, 3, KEY.secretKey())), KEY.publicKey(),
                JOB, 4, 3);

        assertEquals(4, commit.epoch());
    }

    @Test
    void aCommitSignedWithAnotherKeyIsH1621() {
        byte[] forged = signed(4, 3, CompositeSig.generate(RANDOM).secretKey());

        refused(ErrorCode.H1621, () -> CommitSignatures.verify(ByteBuffer.wrap(forged), KEY.publicKey(), JOB, 4, 3));
    }

    @Test
    void aFlippedByteInTheSignedPartIsH1621() {
        byte[] bytes = signed(4, 3, KEY.secretKey());
        bytes[CommitLayout.HASHES_OFFSET] ^= 1;

        refused(ErrorCode.H1621, () -> CommitSignatures.verify(ByteBuffer.wrap(bytes), KEY.publicKey(), JOB, 4, 3));
    }

    @Test
    void aSignedCommitOfAnotherSizeIsH1623AndOfAnotherEpochH1621() {
        byte[] bytes = signed(4, 2, KEY.secretKey());

        refused(ErrorCode.H1623, () -> CommitSignatures.verify(ByteBuffer.wrap(bytes), KEY.publicKey(), JOB, 4, 3));
        refused(ErrorCode.H1621, () -> CommitSignatures.verify(ByteBuffer.wrap(bytes), KEY.publicKey(), JOB, 5, 2));
    }
}
