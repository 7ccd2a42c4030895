package org.sperli.jobspec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.sperli.protocol.JobId;

/** Valid sample values for the job description and join token tests (shared with the checkpoint tests). */
public final class JobSpecSamples {
    /** Job id 01 02 .. 10. */
    public static final JobId JOB = JobId.of(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16});
    public static final JobId OTHER_JOB = JobId.of(new byte[] {9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9});
    public static final long EXPIRY_MS = 1_900_000_000_000L;
    public static final String CA_PEM = "-----BEGIN CERTIFICATE-----\nQ0EgY2VydA==\n-----END CERTIFICATE-----\n";
    public static final String CERT_PEM = "-----BEGIN CERTIFICATE-----\ncmFuayBjZXJ0\n-----END CERTIFICATE-----\n";
    /** The rank key PEM; its body is a marker that toString must never show. */
    public static final String KEY_PEM = "-----BEGIN PRIVATE KEY-----\nS3CR3TK3YM4T3R14L\n-----END PRIVATE KEY-----\n";
    public static final String KEY_MARKER = "S3CR3TK3YM4T3R14L";

    private JobSpecSamples() {
    }

    /** A placeholder signature of 0xaa bytes, as the vectors carry. */
    public static byte[] signature() {
        return filled(JoinToken.SIGNATURE_LENGTH, 0xaa);
    }

    public static byte[] filled(int n, int value) {
        byte[] b = new byte[n];
        Arrays.fill(b, (byte) value);
        return b;
    }

    /** Host of rank i in the sample lists. */
    public static String host(int i) {
        return "node" + i + ".example";
    }

    public static List<JobDescription.HostEntry> hosts(int size) {
        List<JobDescription.HostEntry> hosts = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            hosts.add(new JobDescription.HostEntry(host(i), 7000 + i));
        }
        return hosts;
    }

    public static JoinToken token(int rank, int size, long incarnation, String host) {
        return JoinToken.unsigned(JOB, rank, size, incarnation, EXPIRY_MS, host).withSignature(signature());
    }

    /** The signing key of rank 0 (0x5a bytes). */
    public static byte[] signingKey() {
        return filled(JobDescription.SIGNING_KEY_LENGTH, 0x5a);
    }

    /** A public key whose byte i is i mod 251, so that a shifted copy shows. */
    public static byte[] publicKey() {
        byte[] b = new byte[JobDescription.PUBLIC_KEY_LENGTH];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) (i % 251);
        }
        return b;
    }

    /** A valid description of {@code rank} in a job of {@code size}, incarnation 1. */
    public static JobDescription description(int size, int rank) {
        return new JobDescription(1, JOB, size, rank, 1, 5000, hosts(size), CA_PEM, CERT_PEM, KEY_PEM,
                token(rank, size, 1, host(rank)).toBytes(), rank == 0 ? signingKey() : new byte[0], publicKey());
    }
}
