package org.sperli.jobspec;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * A job description as raw fields, written exactly as set: lengths may lie, values may be out of range. Tests change
 * one field of {@link #valid} and expect the parser to name it.
 */
final class RawDescription {
    /** One host-list entry as raw fields. */
    static final class Host {
        long port;
        long length;
        byte[] host;

        Host(long port, String host) {
            this.port = port;
            this.host = host.getBytes(StandardCharsets.ISO_8859_1);
            this.length = this.host.length;
        }
    }

    long formatVersion = 1;
    byte[] jobId = JobSpecSamples.JOB.toBytes();
    long size;
    long rank;
    long incarnation = 1;
    long silenceMs = 5000;
    List<Host> hosts = new ArrayList<>();
    long caPemLength;
    byte[] caPem;
    long certPemLength;
    byte[] certPem;
    long keyPemLength;
    byte[] keyPem;
    long tokenLength;
    byte[] token;
    long signingKeyLength;
    byte[] signingKey;
    byte[] publicKey = JobSpecSamples.publicKey();
    byte[] trailing = new byte[0];

    /** The raw fields of {@code JobSpecSamples.description(size, rank)}. */
    static RawDescription valid(int size, int rank) {
        RawDescription d = new RawDescription();
        d.size = size;
        d.rank = rank;
        for (int i = 0; i < size; i++) {
            d.hosts.add(new Host(7000 + i, JobSpecSamples.host(i)));
        }
        d.caPem(JobSpecSamples.CA_PEM);
        d.certPem(JobSpecSamples.CERT_PEM);
        d.keyPem(JobSpecSamples.KEY_PEM);
        d.token(JobSpecSamples.token(rank, size, 1, JobSpecSamples.host(rank)).toBytes());
        d.signingKey(rank == 0 ? JobSpecSamples.signingKey() : new byte[0]);
        return d;
    }

    RawDescription caPem(String pem) {
        caPem = pem.getBytes(StandardCharsets.ISO_8859_1);
        caPemLength = caPem.length;
        return this;
    }

    RawDescription certPem(String pem) {
        certPem = pem.getBytes(StandardCharsets.ISO_8859_1);
        certPemLength = certPem.length;
        return this;
    }

    RawDescription keyPem(String pem) {
        keyPem = pem.getBytes(StandardCharsets.ISO_8859_1);
        keyPemLength = keyPem.length;
        return this;
    }

    RawDescription token(byte[] t) {
        token = t;
        tokenLength = t.length;
        return this;
    }

    RawDescription signingKey(byte[] k) {
        signingKey = k;
        signingKeyLength = k.length;
        return this;
    }

    /** The bytes behind the digits, field by field. */
    byte[] toBytes() {
        Le out = new Le();
        out.u16(formatVersion);           // format version
        out.bytes(jobId);                 // job id, 16
        out.u32(size);                    // size
        out.u32(rank);                    // rank
        out.u32(incarnation);             // incarnation
        out.u32(silenceMs);               // silence limit, ms
        for (Host h : hosts) {
            out.u16(h.port);              // port
            out.u8(h.length);             // host length
            out.bytes(h.host);            // host
        }
        out.u32(caPemLength);             // CA certificate PEM length
        out.bytes(caPem);                 // CA certificate PEM
        out.u32(certPemLength);           // rank certificate PEM length
        out.bytes(certPem);               // rank certificate PEM
        out.u32(keyPemLength);            // rank key PEM length
        out.bytes(keyPem);                // rank key PEM
        out.u16(tokenLength);             // token length
        out.bytes(token);                 // token
        out.u32(signingKeyLength);        // job signing key length
        out.bytes(signingKey);            // job signing key
        out.bytes(publicKey);             // job public key, 1344
        out.bytes(trailing);              // nothing, unless a test adds bytes after the key
        return out.toBytes();
    }

    /** The line without its line feed. */
    byte[] line() {
        return HexFormat.of().formatHex(toBytes()).getBytes(StandardCharsets.US_ASCII);
    }

    /** A little-endian writer of raw fields. */
    static final class Le {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        Le u8(long v) {
            out.write((int) v);
            return this;
        }

        Le u16(long v) {
            return u8(v).u8(v >>> 8);
        }

        Le u32(long v) {
            return u16(v).u16(v >>> 16);
        }

        Le u64(long v) {
            return u32(v).u32(v >>> 32);
        }

        Le bytes(byte[] b) {
            out.writeBytes(b);
            return this;
        }

        Le ascii(String s) {
            return bytes(s.getBytes(StandardCharsets.ISO_8859_1));
        }

        byte[] toBytes() {
            return out.toByteArray();
        }
    }
}
