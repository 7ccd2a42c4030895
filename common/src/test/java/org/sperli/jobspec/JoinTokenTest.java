package org.sperli.jobspec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.sperli.ErrorCode;
import org.sperli.SperliException;

class JoinTokenTest {
    private static final String HOST = "node3.example";

    private static JoinToken sample() {
        return JobSpecSamples.token(3, 8, 2, HOST);
    }

    /** The sample token written field by field. */
    private static RawDescription.Le sampleMessage() {
        return new RawDescription.Le()
                .bytes(JobSpecSamples.JOB.toBytes())  // job id, 16
                .u32(3)                               // rank
                .u32(8)                               // size
                .u32(2)                               // incarnation
                .u64(JobSpecSamples.EXPIRY_MS)        // expiry, Unix ms
                .u16(HOST.length())                   // host length
                .ascii(HOST);                         // host
    }

    private static byte[] withSignature(RawDescription.Le message, int signatureLength, int signatureBytes) {
        return message
                .u16(signatureLength)                 // signature length
                .bytes(new byte[signatureBytes])      // signature
                .toBytes();
    }

    private static void assertRefusedH1614(byte[] token) {
        SperliException e = assertThrows(SperliException.class, () -> JoinToken.read(ByteBuffer.wrap(token)));
        assertEquals(ErrorCode.H1614, e.code(), e.getMessage());
    }

    @Test
    void layoutConstants() {
        assertEquals(38, JoinToken.HOST_OFFSET);
        assertEquals(2484, JoinToken.SIGNATURE_LENGTH);
        assertEquals(2524, JoinToken.FIXED_LENGTH);
        assertEquals("SPERLI-JOIN-1", JoinToken.CONTEXT);
    }

    @Test
    void writesFieldByField() {
        byte[] message = sampleMessage().toBytes();
        byte[] expected = sampleMessage().u16(2484).bytes(JobSpecSamples.signature()).toBytes();
        assertArrayEquals(message, sample().signedPart());
        assertArrayEquals(expected, sample().toBytes());
        assertEquals(2524 + HOST.length(), sample().encodedLength());
    }

    @Test
    void readsFieldByField() {
        byte[] bytes = sampleMessage().u16(2484).bytes(JobSpecSamples.signature()).toBytes();
        JoinToken t = JoinToken.read(ByteBuffer.wrap(bytes));
        assertEquals(JobSpecSamples.JOB, t.jobId());
        assertEquals(3, t.rank());
        assertEquals(8, t.size());
        assertEquals(2, t.incarnation());
        assertEquals(JobSpecSamples.EXPIRY_MS, t.expiryMs());
        assertEquals(HOST, t.host());
        assertArrayEquals(JobSpecSamples.signature(), t.signature());
        assertEquals(sample(), t);
    }

    @Test
    void readsFromPositionToLimitWithoutMovingPosition() {
        byte[] token = sample().toBytes();
        ByteBuffer b = ByteBuffer.allocate(token.length + 10);
        b.position(5);
        b.put(token);
        b.position(5).limit(5 + token.length);
        assertEquals(sample(), JoinToken.read(b));
        assertEquals(5, b.position());
    }

    @Test
    void keepsUnsignedFieldsAboveTwoToThe31AndExpiryAboveTwoToThe63() {
        JoinToken t = JoinToken.unsigned(JobSpecSamples.JOB, 0xffff_ffffL, 0x8000_0000L, 0xffff_fffeL, -1L, "a")
                .withSignature(JobSpecSamples.signature());
        assertEquals(t, JoinToken.read(ByteBuffer.wrap(t.toBytes())));
    }

    @Test
    void unsignedTokenHasSignedPartButNoEncoding() {
        JoinToken unsigned = JoinToken.unsigned(JobSpecSamples.JOB, 3, 8, 2, JobSpecSamples.EXPIRY_MS, HOST);
        assertFalse(unsigned.isSigned());
        assertNull(unsigned.signature());
        assertArrayEquals(sample().signedPart(), unsigned.signedPart());
        assertThrows(IllegalStateException.class, unsigned::toBytes);
    }

    @Test
    void refusesCutAtEveryLengthWithH1614() {
        byte[] token = sample().toBytes();
        for (int n = 0; n < token.length; n++) {
            assertRefusedH1614(Arrays.copyOf(token, n));
        }
    }

    @Test
    void refusesTrailingByteWithH1614() {
        byte[] token = sample().toBytes();
        assertRefusedH1614(Arrays.copyOf(token, token.length + 1));
    }

    @Test
    void refusesHostLengthZeroWithH1614() {
        RawDescription.Le m = new RawDescription.Le().bytes(new byte[16]).u32(0).u32(1).u32(1).u64(0).u16(0);
        assertRefusedH1614(withSignature(m, 2484, 2484));
    }

    @Test
    void refusesHostLengthAbove253WithH1614() {
        RawDescription.Le m = new RawDescription.Le().bytes(new byte[16]).u32(0).u32(1).u32(1).u64(0)
                .u16(254).ascii("a".repeat(254));
        assertRefusedH1614(withSignature(m, 2484, 2484));
    }

    @Test
    void refusesHostLengthOf0xffffWithoutAllocatingWithH1614() {
        RawDescription.Le m = new RawDescription.Le().bytes(new byte[16]).u32(0).u32(1).u32(1).u64(0).u16(0xffff);
        assertRefusedH1614(m.toBytes());
    }

    @Test
    void refusesUpperCaseHostWithH1614() {
        RawDescription.Le m = new RawDescription.Le().bytes(new byte[16]).u32(0).u32(1).u32(1).u64(0)
                .u16(5).ascii("Ab.cd");
        assertRefusedH1614(withSignature(m, 2484, 2484));
    }

    @Test
    void refusesNonAsciiHostWithH1614() {
        RawDescription.Le m = new RawDescription.Le().bytes(new byte[16]).u32(0).u32(1).u32(1).u64(0)
                .u16(3).bytes(new byte[] {'a', (byte) 0xe9, 'b'});
        assertRefusedH1614(withSignature(m, 2484, 2484));
    }

    @Test
    void refusesSignatureLengthOtherThan2484WithH1614() {
        assertRefusedH1614(withSignature(sampleMessage(), 2483, 2483));
        assertRefusedH1614(withSignature(sampleMessage(), 2485, 2485));
        assertRefusedH1614(withSignature(sampleMessage(), 0xffff, 2484));
    }

    @Test
    void refusesToEncodeWhatReadRefuses() {
        assertThrows(IllegalArgumentException.class, () -> JobSpecSamples.token(0, 1, 1, "Upper.case").toBytes());
        assertThrows(IllegalArgumentException.class, () -> JobSpecSamples.token(0, 1, 1, "").signedPart());
        assertThrows(IllegalArgumentException.class,
                () -> JobSpecSamples.token(0, 1, 1, "a".repeat(254)).toBytes());
        assertThrows(IllegalArgumentException.class, () -> JobSpecSamples.token(-1, 1, 1, HOST).toBytes());
        assertThrows(IllegalArgumentException.class,
                () -> JoinToken.unsigned(JobSpecSamples.JOB, 0, 1L << 32, 1, 0, HOST).signedPart());
        assertThrows(IllegalArgumentException.class,
                () -> sample().withSignature(new byte[2483]).toBytes());
    }

    @Test
    void writeLeavesBufferUntouchedWhenTooSmall() {
        ByteBuffer small = ByteBuffer.allocate(100);
        assertThrows(BufferOverflowException.class, () -> sample().write(small));
        assertEquals(0, small.position());
        assertTrue(Arrays.equals(new byte[100], small.array()));
    }

    @Test
    void signatureIsCopiedInAndOut() {
        byte[] sig = JobSpecSamples.signature();
        JoinToken t = sample().withSignature(sig);
        sig[0] = 0;
        t.signature()[1] = 0;
        assertArrayEquals(JobSpecSamples.signature(), t.signature());
    }
}
