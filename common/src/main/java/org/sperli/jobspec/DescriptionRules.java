package org.sperli.jobspec;

import java.nio.ByteBuffer;
import java.util.List;
import org.sperli.SperliException;
import org.sperli.protocol.JobId;
import org.sperli.protocol.Limits;

/**
 * The structural rules of a job description, one per field, each returning the fault or {@code null}. The decoder
 * and the encoder of {@link JobDescription} both call these, so they cannot disagree on what is refused.
 */
final class DescriptionRules {
    static final long MAX_U32 = 0xffff_ffffL;
    static final int MAX_PORT = 0xffff;

    private DescriptionRules() {
    }

    static String formatVersion(long version) {
        return version != JobDescription.FORMAT_VERSION
                ? "format version=" + version + ", expected " + JobDescription.FORMAT_VERSION : null;
    }

    static String jobId(JobId jobId) {
        return jobId.isAllZero() ? "job id is all zero" : null;
    }

    static String size(long size) {
        return size < Limits.MIN_SIZE || size > Limits.MAX_SIZE
                ? "size=" + size + ", expected " + Limits.MIN_SIZE + ".." + Limits.MAX_SIZE : null;
    }

    static String rank(long rank, long size) {
        return rank < 0 || rank >= size ? "rank=" + rank + ", expected 0.." + (size - 1) + " (below size)" : null;
    }

    static String incarnation(long incarnation) {
        return incarnation < 1 || incarnation > MAX_U32
                ? "incarnation=" + incarnation + ", expected 1..4294967295 (the first start is 1)" : null;
    }

    static String silenceMs(long silenceMs) {
        return silenceMs < Limits.MIN_SILENCE_MS || silenceMs > Limits.MAX_SILENCE_MS
                ? "silence ms=" + silenceMs + ", expected " + Limits.MIN_SILENCE_MS + ".." + Limits.MAX_SILENCE_MS
                : null;
    }

    static String port(int index, long port) {
        return port < 1 || port > MAX_PORT ? "host[" + index + "] port=" + port + ", expected 1..65535" : null;
    }

    static String hostLength(int index, long length) {
        return length < 1 || length > HostSyntax.MAX_LENGTH
                ? "host[" + index + "] length=" + length + ", expected 1.." + HostSyntax.MAX_LENGTH : null;
    }

    static String host(int index, String host) {
        String fault = HostSyntax.check(host);
        return fault == null ? null : "host[" + index + "]: " + fault;
    }

    static String pemLength(String field, long length) {
        return length < 0 || length > JobDescription.MAX_PEM
                ? field + " length=" + length + ", maximum " + JobDescription.MAX_PEM : null;
    }

    /**
     * PEM is ASCII (RFC 7468); holding the text as a String is lossless only if every byte is one, so anything else
     * is refused here rather than turned into a replacement character.
     */
    static String pemText(String field, CharSequence text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c > 0x7f) {
                return field + " has a non-ASCII character at index " + i;
            }
        }
        return null;
    }

    static String tokenLength(long length) {
        return length < 0 || length > Limits.MAX_TOKEN
                ? "token length=" + length + ", maximum " + Limits.MAX_TOKEN : null;
    }

    /**
     * The token must decode ({@link JoinToken#read}) and its unsigned fields must be this description's: job id,
     * rank, size, incarnation, and the host of this rank's host-list entry. Signature and expiry are checked later.
     */
    static String token(byte[] token, JobId jobId, long rank, long size, long incarnation,
                        List<JobDescription.HostEntry> hosts) {
        JoinToken t;
        try {
            t = JoinToken.read(ByteBuffer.wrap(token));
        } catch (SperliException e) {
            return "token: " + e.reason();
        }
        if (!t.jobId().equals(jobId)) {
            return "token job id=" + t.jobId().hex() + ", description has " + jobId.hex();
        }
        if (t.rank() != rank) {
            return "token rank=" + t.rank() + ", description has " + rank;
        }
        if (t.size() != size) {
            return "token size=" + t.size() + ", description has " + size;
        }
        if (t.incarnation() != incarnation) {
            return "token incarnation=" + t.incarnation() + ", description has " + incarnation;
        }
        String own = hosts.get((int) rank).host();
        if (!t.host().equals(own)) {
            return "token host=" + HostSyntax.printable(t.host()) + ", host list entry of rank " + rank + " is "
                    + HostSyntax.printable(own);
        }
        return null;
    }

    static String signingKeyLength(long length, long rank) {
        long expected = rank == 0 ? JobDescription.SIGNING_KEY_LENGTH : 0;
        return length != expected
                ? "job signing key length=" + length + ", expected " + expected
                + (rank == 0 ? " at rank 0" : " at rank " + rank + " (only rank 0 holds the key)") : null;
    }

    static String publicKeyLength(long length) {
        return length != JobDescription.PUBLIC_KEY_LENGTH
                ? "job public key length=" + length + ", expected " + JobDescription.PUBLIC_KEY_LENGTH : null;
    }
}
