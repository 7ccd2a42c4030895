package org.sperli.jobspec;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.protocol.JobId;

/**
 * Reads the fields of a job description in table order, judging each as soon as it is read, so the first fault in
 * field order is the one reported (H1616). Every length is judged against its limit and against the bytes left before
 * anything is allocated from it.
 */
final class DescriptionDecoder {
    private final ByteBuffer b;

    private DescriptionDecoder(byte[] bytes) {
        this.b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** The description in {@code bytes}, which the caller zeroes afterwards. */
    static JobDescription decode(byte[] bytes) {
        return new DescriptionDecoder(bytes).decode();
    }

    private JobDescription decode() {
        int formatVersion = u16("format version");
        check(DescriptionRules.formatVersion(formatVersion));
        JobId jobId = JobId.of(bytes("job id", JobId.LENGTH));
        check(DescriptionRules.jobId(jobId));
        long size = u32("size");
        check(DescriptionRules.size(size));
        long rank = u32("rank");
        check(DescriptionRules.rank(rank, size));
        long incarnation = u32("incarnation");
        check(DescriptionRules.incarnation(incarnation));
        long silenceMs = u32("silence ms");
        check(DescriptionRules.silenceMs(silenceMs));
        List<JobDescription.HostEntry> hosts = new ArrayList<>((int) size);
        for (int i = 0; i < size; i++) {
            hosts.add(hostEntry(i));
        }
        String caCertPem = pem("CA certificate PEM");
        String rankCertPem = pem("rank certificate PEM");
        String rankKeyPem = pem("rank key PEM");
        int tokenLength = u16("token length");
        check(DescriptionRules.tokenLength(tokenLength));
        byte[] token = bytes("token", tokenLength);
        check(DescriptionRules.token(token, jobId, rank, size, incarnation, hosts));
        long signingKeyLength = u32("job signing key length");
        check(DescriptionRules.signingKeyLength(signingKeyLength, rank));
        byte[] signingKey = bytes("job signing key", (int) signingKeyLength);
        try {
            byte[] publicKey = bytes("job public key", JobDescription.PUBLIC_KEY_LENGTH);
            if (b.hasRemaining()) {
                throw refuse(b.remaining() + " bytes after the job public key");
            }
            return new JobDescription(formatVersion, jobId, (int) size, (int) rank, incarnation, silenceMs, hosts,
                    caCertPem, rankCertPem, rankKeyPem, token, signingKey, publicKey);
        } finally {
            Arrays.fill(signingKey, (byte) 0);
        }
    }

    private JobDescription.HostEntry hostEntry(int index) {
        int port = u16("host[" + index + "] port");
        check(DescriptionRules.port(index, port));
        int length = u8("host[" + index + "] length");
        check(DescriptionRules.hostLength(index, length));
        // ISO-8859-1 maps every byte to one char, so a non-ASCII byte survives for the syntax check to refuse.
        String host = new String(bytes("host[" + index + "]", length), StandardCharsets.ISO_8859_1);
        check(DescriptionRules.host(index, host));
        return new JobDescription.HostEntry(host, port);
    }

    private String pem(String field) {
        long length = u32(field + " length");
        check(DescriptionRules.pemLength(field, length));
        byte[] text = bytes(field, (int) length);
        try {
            String pem = new String(text, StandardCharsets.ISO_8859_1);
            check(DescriptionRules.pemText(field, pem));
            return pem;
        } finally {
            // The rank key PEM is a secret; the String cannot be wiped, but this copy can.
            Arrays.fill(text, (byte) 0);
        }
    }

    private int u8(String field) {
        need(field, 1);
        return Byte.toUnsignedInt(b.get());
    }

    private int u16(String field) {
        need(field, 2);
        return Short.toUnsignedInt(b.getShort());
    }

    private long u32(String field) {
        need(field, 4);
        return Integer.toUnsignedLong(b.getInt());
    }

    /** {@code n} bytes; every caller has judged {@code n} against its limit first. */
    private byte[] bytes(String field, int n) {
        need(field, n);
        byte[] out = new byte[n];
        b.get(out);
        return out;
    }

    private void need(String field, int n) {
        if (b.remaining() < n) {
            throw refuse("cut field: " + field + " needs " + n + " bytes, " + b.remaining() + " left");
        }
    }

    private static void check(String fault) {
        if (fault != null) {
            throw refuse(fault);
        }
    }

    private static SperliException refuse(String reason) {
        return new SperliException(ErrorCode.H1616, "job description " + reason);
    }
}
