package org.sperli.jobspec;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;
import org.sperli.protocol.JobId;

/** Generators of valid hosts, tokens and descriptions for the property tests. */
public final class JobSpecArbitraries {
    private static final long MAX_U32 = 0xffff_ffffL;

    private JobSpecArbitraries() {
    }

    /** Valid v1 hosts: dotted IPv4 addresses and lower-case LDH names, some 253 bytes long. */
    public static Arbitrary<String> hosts() {
        Arbitrary<String> octet = Arbitraries.integers().between(0, 255).map(String::valueOf);
        Arbitrary<String> ipv4 = octet.list().ofSize(4).map(l -> String.join(".", l));
        Arbitrary<String> part = Arbitraries.strings().withChars("abcdefghijklmnopqrstuvwxyz0123456789")
                .ofMinLength(1).ofMaxLength(20);
        Arbitrary<String> label = Combinators.combine(part, part, Arbitraries.of(true, false))
                .as((a, b, hyphen) -> hyphen ? a + "-" + b : a);
        Arbitrary<String> name = label.list().ofMinSize(1).ofMaxSize(5).map(l -> String.join(".", l))
                .filter(h -> HostSyntax.check(h) == null);
        Arbitrary<String> longest = Arbitraries.just("a".repeat(63) + "." + "b".repeat(63) + "." + "c".repeat(63)
                + "." + "d".repeat(61));
        return Arbitraries.frequencyOf(
                Tuple.of(3, ipv4), Tuple.of(6, name), Tuple.of(1, longest));
    }

    /** Bytes from a seeded source. */
    public static byte[] bytes(Random random, int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    /** A job id that is not all zero. */
    public static JobId jobId(Random random) {
        byte[] b = bytes(random, JobId.LENGTH);
        b[random.nextInt(JobId.LENGTH)] |= 1;
        return JobId.of(b);
    }

    /** Valid signed tokens with any u32 fields and any expiry. */
    public static Arbitrary<JoinToken> tokens() {
        return Combinators.combine(
                Arbitraries.longs().between(0, MAX_U32), Arbitraries.longs().between(0, MAX_U32),
                Arbitraries.longs().between(0, MAX_U32), Arbitraries.longs(), hosts(), Arbitraries.longs())
                .as((rank, size, incarnation, expiry, host, seed) -> {
                    Random random = new Random(seed);
                    return JoinToken.unsigned(jobId(random), rank, size, incarnation, expiry, host)
                            .withSignature(bytes(random, JoinToken.SIGNATURE_LENGTH));
                });
    }

    /** Valid descriptions of 1..5 ranks with ASCII PEMs of up to 300 characters. */
    public static Arbitrary<JobDescription> descriptions() {
        Arbitrary<String> pem = Arbitraries.strings().withCharRange((char) 0, (char) 0x7f).ofMaxLength(300);
        return Arbitraries.integers().between(1, 5).flatMap(size -> Combinators.combine(
                Arbitraries.integers().between(0, size - 1),
                Arbitraries.longs().between(1, MAX_U32),
                Arbitraries.longs().between(2000, 3_600_000),
                hosts().list().ofSize(size),
                Arbitraries.integers().between(1, 65535).list().ofSize(size),
                pem.list().ofSize(3),
                Arbitraries.longs())
                .as((rank, incarnation, silenceMs, names, ports, pems, seed) -> {
                    Random random = new Random(seed);
                    JobId job = jobId(random);
                    List<JobDescription.HostEntry> hosts = new ArrayList<>();
                    for (int i = 0; i < size; i++) {
                        hosts.add(new JobDescription.HostEntry(names.get(i), ports.get(i)));
                    }
                    byte[] token = JoinToken.unsigned(job, rank, size, incarnation, random.nextLong(),
                            names.get(rank)).withSignature(bytes(random, JoinToken.SIGNATURE_LENGTH)).toBytes();
                    byte[] key = rank == 0 ? bytes(random, JobDescription.SIGNING_KEY_LENGTH) : new byte[0];
                    return new JobDescription(1, job, size, rank, incarnation, silenceMs, hosts, pems.get(0),
                            pems.get(1), pems.get(2), token, key, bytes(random, JobDescription.PUBLIC_KEY_LENGTH));
                }));
    }
}
