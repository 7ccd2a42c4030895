package org.sperli.jobspec;

import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.ReadOnlyBufferException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.protocol.Encodable;
import org.sperli.protocol.JobId;
import org.sperli.protocol.Wire;

/**
 * The join token (tables section 3): a message signed with the job key, then the signature.
 *
 * <pre>
 * off       size field
 *   0         16 job id
 *  16          4 rank
 *  20          4 size
 *  24          4 incarnation
 *  28          8 expiry, Unix time in milliseconds
 *  36          2 host length H, 1..253
 *  38          H host, lower-case ASCII, exactly as in the host list ({@link HostSyntax})
 *  38 + H      2 signature length, 2484
 *  40 + H   2484 CompositeSig over bytes 0 .. 38 + H (the signed part), context {@value #CONTEXT}
 * </pre>
 *
 * <p>This class is bytes only: {@link #read} refuses every structural fault with H1614 (cut, trailing bytes, host
 * length or syntax, signature length); it does not verify the signature nor compare the fields with the job, which
 * {@code org.sperli.identity} does. The encoding is canonical, so {@link #signedPart()} of a decoded token is exactly
 * the bytes that were signed.
 *
 * <p>Unsigned 32-bit fields are held in {@code long}. {@code expiryMs} is the raw u64: a value of 2^63 or more shows
 * as negative, so compare it with {@link Long#compareUnsigned}. A token built with {@link #unsigned} has a
 * {@code null} signature until {@link #withSignature} gives it one; only a signed token encodes whole.
 */
public record JoinToken(JobId jobId, long rank, long size, long incarnation, long expiryMs, String host,
                        byte[] signature) implements Encodable {
    // Each field's offset named, from the one before, as every layout here is written: the tables look alike on
    // purpose, so that each reads against the protocol's own table line by line.
    public static final int JOB_ID_OFFSET = 0;
    public static final int RANK_OFFSET = JOB_ID_OFFSET + JobId.LENGTH;
    public static final int SIZE_OFFSET = RANK_OFFSET + 4;
    public static final int INCARNATION_OFFSET = SIZE_OFFSET + 4;
    public static final int EXPIRY_OFFSET = INCARNATION_OFFSET + 4;
    public static final int HOST_LENGTH_OFFSET = EXPIRY_OFFSET + 8;
    public static final int HOST_OFFSET = HOST_LENGTH_OFFSET + 2;
    /** Bytes of the signature length field, which follows the host. */
    public static final int SIGNATURE_LENGTH_SIZE = 2;
    /** A CompositeSig (ML-DSA-44 and Ed25519) signature. */
    public static final int SIGNATURE_LENGTH = 2484;
    /** Bytes of a token besides its host: 2524. */
    public static final int FIXED_LENGTH = HOST_OFFSET + SIGNATURE_LENGTH_SIZE + SIGNATURE_LENGTH;
    /** Shortest and longest token. */
    public static final int MIN_LENGTH = FIXED_LENGTH + 1;
    public static final int MAX_LENGTH = FIXED_LENGTH + HostSyntax.MAX_LENGTH;
    /** The CompositeSig application context of join tokens. */
    public static final String CONTEXT = "SPERLI-JOIN-1";

    public JoinToken {
        Objects.requireNonNull(jobId, "jobId");
        Objects.requireNonNull(host, "host");
        signature = signature == null ? null : signature.clone();
    }

    /** A token without its signature, so that the signer can sign {@link #signedPart()} first. */
    public static JoinToken unsigned(JobId jobId, long rank, long size, long incarnation, long expiryMs, String host) {
        return new JoinToken(jobId, rank, size, incarnation, expiryMs, host, null);
    }

    /** This token with {@code signature} (2484 bytes, copied). */
    public JoinToken withSignature(byte[] signature) {
        return new JoinToken(jobId, rank, size, incarnation, expiryMs, host, Objects.requireNonNull(signature));
    }

    /** Decodes the bytes from {@code token}'s position to its limit, without moving the position. Refusals: H1614. */
    public static JoinToken read(ByteBuffer token) {
        ByteBuffer b = token.slice().order(ByteOrder.LITTLE_ENDIAN);
        int available = b.limit();
        if (available < HOST_OFFSET) {
            throw refuse("length=" + available + ", cut before the host: the fixed fields need " + HOST_OFFSET);
        }
        int hostLength = Short.toUnsignedInt(b.getShort(HOST_LENGTH_OFFSET));
        String fault = hostLengthFault(hostLength);
        if (fault != null) {
            throw refuse(fault);
        }
        int signatureLengthOffset = HOST_OFFSET + hostLength;
        if (available < signatureLengthOffset) {
            throw refuse("length=" + available + ", host of " + hostLength + " bytes is cut");
        }
        byte[] hostBytes = new byte[hostLength];
        b.get(HOST_OFFSET, hostBytes);
        // ISO-8859-1 maps every byte to one char, so a non-ASCII byte survives for the syntax check to refuse.
        String host = new String(hostBytes, StandardCharsets.ISO_8859_1);
        fault = HostSyntax.check(host);
        if (fault != null) {
            throw refuse(fault);
        }
        if (available < signatureLengthOffset + SIGNATURE_LENGTH_SIZE) {
            throw refuse("length=" + available + ", cut before the signature length");
        }
        int signatureLength = Short.toUnsignedInt(b.getShort(signatureLengthOffset));
        if (signatureLength != SIGNATURE_LENGTH) {
            throw refuse("signature length=" + signatureLength + ", expected " + SIGNATURE_LENGTH);
        }
        int expected = FIXED_LENGTH + hostLength;
        if (available != expected) {
            throw refuse("length=" + available + ", a token with a " + hostLength + "-byte host has " + expected
                    + (available < expected ? " (signature cut)" : " (trailing bytes)"));
        }
        byte[] signature = new byte[SIGNATURE_LENGTH];
        b.get(signatureLengthOffset + SIGNATURE_LENGTH_SIZE, signature);
        return new JoinToken(JobId.read(b, JOB_ID_OFFSET),
                Integer.toUnsignedLong(b.getInt(RANK_OFFSET)),
                Integer.toUnsignedLong(b.getInt(SIZE_OFFSET)),
                Integer.toUnsignedLong(b.getInt(INCARNATION_OFFSET)),
                b.getLong(EXPIRY_OFFSET),
                host,
                signature);
    }

    /** The signature (a copy), or {@code null} for an unsigned token. */
    @Override
    public byte[] signature() {
        return signature == null ? null : signature.clone();
    }

    /** Whether the token carries a signature. */
    public boolean isSigned() {
        return signature != null;
    }

    /** Bytes of the signed message: 38 + host length. Refuses (IllegalArgumentException) a message read refuses. */
    public int signedPartLength() {
        requireEncodable(messageFault());
        return HOST_OFFSET + host.length();
    }

    /** The message the signature covers, bytes 0 .. 38 + H. */
    public byte[] signedPart() {
        return Wire.written(signedPartLength(), this::writeMessage);
    }

    /** Bytes of the whole token. Refuses an unsigned token or anything {@link #read} refuses. */
    @Override
    public int encodedLength() {
        requireEncodable(messageFault());
        if (signature == null) {
            throw new IllegalStateException("token is unsigned: sign signedPart() and use withSignature first");
        }
        requireEncodable(signature.length != SIGNATURE_LENGTH
                ? "signature length=" + signature.length + ", expected " + SIGNATURE_LENGTH : null);
        return FIXED_LENGTH + host.length();
    }

    /** Writes the whole token at {@code out}'s position and advances it; nothing is written when it refuses. */
    @Override
    public void write(ByteBuffer out) {
        int length = encodedLength();
        if (out.isReadOnly()) {
            throw new ReadOnlyBufferException();
        }
        if (out.remaining() < length) {
            throw new BufferOverflowException();
        }
        ByteBuffer b = out.slice(out.position(), length).order(ByteOrder.LITTLE_ENDIAN);
        writeMessage(b);
        int signatureLengthOffset = HOST_OFFSET + host.length();
        b.putShort(signatureLengthOffset, (short) SIGNATURE_LENGTH);
        b.put(signatureLengthOffset + SIGNATURE_LENGTH_SIZE, signature);
        out.position(out.position() + length);
    }

    private void writeMessage(ByteBuffer b) {
        jobId.write(b, JOB_ID_OFFSET);
        b.putInt(RANK_OFFSET, (int) rank);
        b.putInt(SIZE_OFFSET, (int) size);
        b.putInt(INCARNATION_OFFSET, (int) incarnation);
        b.putLong(EXPIRY_OFFSET, expiryMs);
        b.putShort(HOST_LENGTH_OFFSET, (short) host.length());
        b.put(HOST_OFFSET, host.getBytes(StandardCharsets.US_ASCII));
    }

    /** The first field the decoder could not have produced, or null. */
    private String messageFault() {
        String fault = Wire.u32Fault("rank", rank);
        if (fault == null) {
            fault = Wire.u32Fault("size", size);
        }
        if (fault == null) {
            fault = Wire.u32Fault("incarnation", incarnation);
        }
        if (fault == null) {
            fault = hostLengthFault(host.length());
        }
        return fault == null ? HostSyntax.check(host) : fault;
    }

    private static String hostLengthFault(long hostLength) {
        return hostLength < 1 || hostLength > HostSyntax.MAX_LENGTH
                ? "host length=" + hostLength + ", expected 1.." + HostSyntax.MAX_LENGTH : null;
    }

    private static void requireEncodable(String fault) {
        if (fault != null) {
            throw new IllegalArgumentException("refusing to encode a token a receiver refuses: " + fault);
        }
    }

    private static SperliException refuse(String reason) {
        return new SperliException(ErrorCode.H1614, "join token: " + reason);
    }

    // Written out because a record compares the signature array by reference; RankFileHeader does the same for its
    // hash.
    @Override
    public boolean equals(Object o) {
        return o instanceof JoinToken t && rank == t.rank && size == t.size && incarnation == t.incarnation
                && expiryMs == t.expiryMs && jobId.equals(t.jobId) && host.equals(t.host)
                && Arrays.equals(signature, t.signature);
    }

    @Override
    public int hashCode() {
        return Objects.hash(jobId, rank, size, incarnation, expiryMs, host) * 31 + Arrays.hashCode(signature);
    }

    @Override
    public String toString() {
        return "JoinToken[jobId=" + jobId + ", rank=" + rank + ", size=" + size + ", incarnation=" + incarnation
                + ", expiryMs=" + Long.toUnsignedString(expiryMs) + ", host=" + HostSyntax.printable(host)
                + ", signature=" + (signature == null ? "none" : signature.length + " bytes") + "]";
    }
}
